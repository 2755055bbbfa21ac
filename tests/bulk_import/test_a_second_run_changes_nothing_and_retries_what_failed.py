"""Resumable: a second run skips what is indexed (no new job, no new row, no new chunk)
and retries a file that failed, now fixed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ingestion.models import Chunk, Document, DocumentStatus, IngestionJob
from tests.bulk_import.helpers import ImportRun, regulation_text, write

pytestmark = pytest.mark.django_db


def _state() -> tuple[object, ...]:
    documents = sorted(
        Document.objects.values_list("id", "status", "checksum", "updated_at"), key=str
    )
    chunks = sorted(Chunk.objects.values_list("id", "document_id"))
    return (documents, chunks, IngestionJob.objects.count())


def test_running_the_import_twice_changes_nothing_the_second_time(
    corpus: Path, import_corpus: Callable[..., ImportRun]
) -> None:
    import_corpus(str(corpus))
    before = _state()

    again = import_corpus(str(corpus))

    assert again.statuses() == {"perda/2024/5.txt": "skipped", "perda/6-2024.md": "skipped"}
    assert {r["reason"] for r in again.rows} == {"Sudah terindeks"}
    assert _state() == before


def test_a_file_that_failed_is_retried_by_the_next_run_into_the_same_document(
    corpus: Path, import_corpus: Callable[..., ImportRun]
) -> None:
    broken = write(corpus, "7-2024.pdf", b"%PDF-1.7 ini bukan PDF yang utuh")
    first = import_corpus(str(corpus))
    assert first.row("perda/7-2024.pdf")["status"] == "failed"
    failed = Document.objects.get(metadata__source_key="import:import_corpus:perda/7-2024.pdf")
    assert failed.status == DocumentStatus.FAILED

    broken.unlink()
    write(corpus, "7-2024.txt", regulation_text(7, 2024, "parkir", "tempat parkir umum"))
    second = import_corpus(str(corpus))

    assert second.statuses() == {
        "perda/2024/5.txt": "skipped",
        "perda/6-2024.md": "skipped",
        "perda/7-2024.txt": "indexed",
    }
    write(corpus, "7-2024.pdf", b"%PDF-1.7 ini bukan PDF yang utuh")
    third = import_corpus(str(corpus / "7-2024.pdf"))
    assert third.rows[0]["status"] == "failed"
    assert third.rows[0]["document_id"] == str(failed.pk)  # the same row, retried in place
