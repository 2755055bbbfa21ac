"""A correction replaces a document's chunks all at once, or not at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import DatabaseError

from ingestion.models import Chunk, Document, DocumentStatus
from ingestion.pipeline.base import ChunkDraft
from ingestion.pipeline.index import write_document
from ingestion.pipeline.runner import Outcome, ingest
from tests.pipeline_core.helpers import (
    LEGAL_TEXT,
    RecordingObserver,
    doc_id,
    make_request,
    put_object,
    text_pdf,
)

pytestmark = pytest.mark.django_db


def _snapshot(document_id: Any) -> list[tuple[int, str]]:
    return list(
        Chunk.objects.filter(document_id=document_id)
        .order_by("ordinal")
        .values_list("ordinal", "text")
    )


def test_a_write_that_fails_midway_leaves_the_previous_chunks_untouched(
    store_dir: Path,
) -> None:
    put_object(store_dir, "a/qanun.txt", LEGAL_TEXT.encode())
    first = ingest(make_request("a/qanun.txt", source_key="k-atomic"), RecordingObserver())
    document = Document.objects.get(pk=doc_id(first))
    before = _snapshot(document.pk)
    drafts = [
        ChunkDraft(
            ordinal=i, text=f"baru {i}", heading_path=[], page_from=1, page_to=1, token_count=2
        )
        for i in range(3)
    ]
    good = [[0.1] * 384, [0.2] * 384]
    bad = [[0.3] * 7]  # wrong dimension: Postgres refuses the third row
    with pytest.raises(DatabaseError):
        write_document(
            document,
            drafts,
            [*good, *bad],
            model_id="m",
            threshold=0.75,
            page_count=1,
            fields={"title": "Judul baru"},
        )
    assert _snapshot(document.pk) == before
    document.refresh_from_db()
    assert document.title != "Judul baru"
    assert document.status == DocumentStatus.INDEXED


def test_a_correction_that_cannot_be_parsed_keeps_the_indexed_document_searchable(
    store_dir: Path,
) -> None:
    put_object(store_dir, "a/qanun.pdf", text_pdf())
    first = ingest(
        make_request("a/qanun.pdf", "pdf", source_key="k-broken", source_version="v1"),
        RecordingObserver(),
    )
    assert first.outcome is Outcome.INDEXED
    before = _snapshot(first.document_id)
    put_object(store_dir, "a/qanun.pdf", b"%PDF-1.4\nrusak")
    observer = RecordingObserver()
    second = ingest(
        make_request("a/qanun.pdf", "pdf", source_key="k-broken", source_version="v1"), observer
    )
    assert second.outcome is Outcome.FAILED
    assert second.document_id == first.document_id
    assert observer.keys == ["fetched", "failed"]
    document = Document.objects.get(pk=doc_id(first))
    assert document.status == DocumentStatus.INDEXED
    assert document.checksum == first.checksum
    assert _snapshot(document.pk) == before
