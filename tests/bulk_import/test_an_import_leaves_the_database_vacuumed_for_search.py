"""An import that wrote documents ends with VACUUM (ANALYZE): search right after a large
import reads visible pages and fresh statistics, not what autovacuum would leave later."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest
from django.db import connection

from tests.bulk_import.helpers import ImportRun

pytestmark = pytest.mark.django_db(transaction=True)


def _last_vacuum(table: str) -> tuple[datetime | None, datetime | None]:
    """When ``table`` was last vacuumed and analysed by a command (autovacuum not counted)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT last_vacuum, last_analyze FROM pg_stat_user_tables WHERE relname = %s",
            [table],
        )
        vacuumed, analysed = cursor.fetchone()
        return vacuumed, analysed


def _vacuumed_since(table: str, started: float, wait: float) -> bool:
    """Statistics reach the view within a second or so; wait up to ``wait`` for them."""
    deadline = time.monotonic() + wait
    while True:
        vacuumed, analysed = _last_vacuum(table)
        if vacuumed and analysed and min(vacuumed, analysed).timestamp() >= started:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


def test_an_import_that_indexed_documents_vacuums_and_analyses_the_chunks(
    corpus: Path, import_corpus: Callable[..., ImportRun]
) -> None:
    started = time.time()

    run = import_corpus(str(corpus))

    assert "indexed 2" in run.stdout
    assert _vacuumed_since("ingestion_chunk", started, wait=5.0)


def test_a_dry_run_vacuums_nothing(corpus: Path, import_corpus: Callable[..., ImportRun]) -> None:
    started = time.time()

    import_corpus(str(corpus), "--dry-run")

    assert not _vacuumed_since("ingestion_chunk", started, wait=1.5)
