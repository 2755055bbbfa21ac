"""``--workers 2``: two forked processes import the folder; every file once, the same
documents as one worker would make, including a duplicate pair racing each other."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ingestion.models import Document, DocumentStatus
from tests.bulk_import.helpers import ImportRun, regulation_text, write

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_workers_index_every_file_once(
    corpus: Path, import_corpus: Callable[..., ImportRun]
) -> None:
    for nomor in range(10, 14):
        write(corpus, f"{nomor}.txt", regulation_text(nomor, 2023, f"urusan {nomor}", "urusan"))
    write(corpus, "salinan-10.txt", (corpus / "10.txt").read_text(encoding="utf-8"))

    run = import_corpus(str(corpus), "--workers", "2")

    assert len(run.rows) == 7
    statuses = sorted(run.statuses().values())
    assert statuses == ["indexed"] * 6 + ["skipped"]
    assert Document.objects.filter(status=DocumentStatus.INDEXED).count() == 6
    assert Document.objects.exclude(status=DocumentStatus.INDEXED).count() == 0
