"""Ctrl-C sets a flag: the file in hand is finished (nothing half-written), no new one
starts, and the next run imports the rest."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from ingestion.bulk.items import from_paths
from ingestion.bulk.one import ImportSettings, ItemResult
from ingestion.bulk.run import run_import
from ingestion.models import Document, DocumentStatus
from tests.bulk_import.helpers import ImportRun

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("store_dir")]


def test_a_stop_after_the_first_file_leaves_one_complete_document_and_the_rerun_adds_the_rest(
    corpus: Path, import_corpus: Callable[..., ImportRun]
) -> None:
    stop = threading.Event()

    def interrupted(_result: ItemResult) -> None:
        stop.set()  # what the SIGINT handler does

    results = run_import(
        from_paths([str(corpus)]), ImportSettings(), stop=stop, on_result=interrupted
    )

    assert len(results) == 1
    assert [d.status for d in Document.objects.all()] == [DocumentStatus.INDEXED]
    rerun = import_corpus(str(corpus))
    assert sorted(rerun.statuses().values()) == ["indexed", "skipped"]
