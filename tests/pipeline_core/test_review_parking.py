"""Low-confidence OCR chunks are parked for review; the rest stays searchable."""

from __future__ import annotations

import uuid

import pytest

from ingestion.models import Chunk, Document, DocumentStatus, ReviewState
from ingestion.pipeline.base import ChunkDraft
from ingestion.pipeline.index import write_document

pytestmark = pytest.mark.django_db


def _document() -> Document:
    return Document.objects.create(
        source_type="JDIH",
        metadata={"source_key": str(uuid.uuid4()), "source_version": "1", "source": {}},
        title="Pindaian",
        file_name="scan.pdf",
        mime_type="application/pdf",
        format="pdf",
        storage_key="scan.pdf",
        checksum=uuid.uuid4().hex,
        status=DocumentStatus.PROCESSING,
    )


def _draft(ordinal: int, confidence: float | None) -> ChunkDraft:
    return ChunkDraft(
        ordinal=ordinal,
        text=f"teks {ordinal}",
        heading_path=["BAB I"],
        page_from=1,
        page_to=1,
        token_count=2,
        ocr_confidence=confidence,
    )


def test_a_document_with_one_weak_chunk_needs_review_and_keeps_the_others_searchable() -> None:
    document = _document()
    drafts = [_draft(0, 0.95), _draft(1, 0.40), _draft(2, 0.90)]
    summary = write_document(
        document, drafts, [[0.1] * 384] * 3, model_id="m", threshold=0.75, page_count=1
    )
    assert summary.status == DocumentStatus.NEEDS_REVIEW
    assert (summary.chunk_count, summary.indexed_count) == (3, 2)
    assert summary.ocr_confidence == pytest.approx(0.40)  # parked chunks count too
    rows = {c.ordinal: c for c in Chunk.objects.filter(document=document)}
    assert (rows[1].indexed, rows[1].review_state) == (False, ReviewState.PENDING)
    assert all(rows[i].indexed and rows[i].review_state == ReviewState.NONE for i in (0, 2))
    document.refresh_from_db()
    assert document.status == DocumentStatus.NEEDS_REVIEW
    assert document.ocr_confidence == pytest.approx(0.40)


def test_a_document_whose_chunks_all_pass_the_threshold_is_indexed() -> None:
    document = _document()
    summary = write_document(
        document,
        [_draft(0, 0.80), _draft(1, None)],
        [[0.1] * 384] * 2,
        model_id="m",
        threshold=0.75,
        page_count=1,
    )
    assert summary.status == DocumentStatus.INDEXED
    assert Chunk.objects.filter(document=document, indexed=False).count() == 0
