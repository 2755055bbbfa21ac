"""A needs_review document whose original PDF is in the object store, with parked chunks."""

from __future__ import annotations

from pathlib import Path

from ingestion.models import Chunk, Document, DocumentStatus
from tests.ui._files import text_pdf
from tests.ui._support import make_chunks, make_document


def parked_document(object_store: Path, confidences: list[float], *, pages: int = 2) -> Document:
    document = make_document(status=DocumentStatus.NEEDS_REVIEW, page_count=pages)
    path = object_store / document.storage_key
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text_pdf("Qanun Aceh tentang kearsipan. Pasal 1 arsip daerah", pages=pages))
    chunks = make_chunks(document, len(confidences), parked=True)
    for chunk, confidence in zip(chunks, confidences, strict=True):
        chunk.ocr_confidence = confidence
        chunk.page_from = chunk.page_to = 1 + chunk.ordinal % pages
    Chunk.objects.bulk_update(chunks, ["ocr_confidence", "page_from", "page_to"])
    return document
