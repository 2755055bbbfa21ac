"""Milestones follow the contract's lifecycle for each path through the pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ingestion.models import Chunk, Document, DocumentStatus
from ingestion.pipeline.runner import Outcome, ingest
from tests.pipeline_core.helpers import (
    RecordingObserver,
    doc_id,
    image_only_pdf,
    make_request,
    put_object,
    text_pdf,
)

pytestmark = pytest.mark.django_db


def test_a_born_digital_document_reports_fetch_parse_chunk_embed_then_indexed(
    store_dir: Path,
) -> None:
    key = put_object(store_dir, "jdih/qanun-3-2026.pdf", text_pdf())
    observer = RecordingObserver()
    result = ingest(make_request(key, "pdf"), observer)

    assert result.outcome is Outcome.INDEXED, result.error
    assert observer.keys == ["fetched", "parsed", "chunked", "embedded", "indexed"]
    fetched, *rest = observer.events
    assert fetched[1] is None  # no document row exists yet when the bytes arrive
    assert {doc_id for _, doc_id, _, _ in rest} == {result.document_id}
    chunks = Chunk.objects.filter(document_id=doc_id(result))
    assert observer.events[2][2] == {"chunkCount": chunks.count()}
    assert observer.events[-1][2] == {"chunkCount": chunks.filter(indexed=True).count()}
    assert Document.objects.get(pk=doc_id(result)).status == DocumentStatus.INDEXED


def test_a_scan_reports_ocr_pending_before_parse_and_ocr_done_after_it(
    store_dir: Path,
    settings: Any,
) -> None:
    settings.OCR_RENDER_DPI = 150
    key = put_object(store_dir, "jdih/pindaian.pdf", image_only_pdf())
    observer = RecordingObserver()
    result = ingest(make_request(key, "pdf"), observer)

    assert result.outcome in (Outcome.INDEXED, Outcome.NEEDS_REVIEW), result.error
    assert observer.keys == [
        "fetched",
        "ocr_pending",
        "parsed",
        "ocr",
        "chunked",
        "embedded",
        result.outcome.value,
    ]
    ocr_pending = observer.events[1]
    assert ocr_pending[1:] == (None, None, None)
    terminal_meta = observer.events[-1][2]
    assert terminal_meta is not None
    assert terminal_meta["ocrConfidence"] == pytest.approx(result.ocr_confidence)
    text = " ".join(Chunk.objects.filter(document_id=doc_id(result)).values_list("text", flat=True))
    assert "Pemerintah Aceh" in text or "Retribusi" in text


def test_a_failure_after_fetch_reports_only_fetched_and_failed_with_the_reason(
    store_dir: Path,
) -> None:
    key = put_object(store_dir, "jdih/rusak.pdf", b"%PDF-1.4\n" + b"\x00garbage" * 50)
    observer = RecordingObserver()
    result = ingest(make_request(key, "pdf"), observer)

    assert result.outcome is Outcome.FAILED
    assert result.permanent
    assert observer.keys == ["fetched", "failed"]
    assert observer.events[-1][3] == result.error
    assert "PDF" in (result.error or "")
    document = Document.objects.get(pk=doc_id(result))
    assert document.status == DocumentStatus.FAILED
    assert document.failure_reason == result.error


def test_a_missing_object_fails_without_a_fetched_milestone(
    store_dir: Path,
) -> None:
    observer = RecordingObserver()
    result = ingest(make_request("jdih/tidak-ada.txt"), observer)
    assert result.outcome is Outcome.FAILED
    assert observer.keys == ["failed"]
    assert observer.events[0][1] is None
    assert "tidak ditemukan" in (result.error or "")
