"""A scan: ocr_pending/started goes out live before the parse milestone, then the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ingestion.models import Chunk, Document, IngestionJob, JobState
from tests.partner_ingest.helpers import doc_uploaded, ingest_event, put_object, scan_pdf

pytestmark = pytest.mark.django_db(transaction=True)

OCR_SEQUENCE = [
    ("fetched", "extracting", "done", 10, False),
    ("ocr_pending", "ocr_pending", "started", 25, False),
    ("parsed", "extracting", "done", 25, True),
    ("ocr", "ocr_done", "done", 45, True),
    ("chunked", "chunking", "done", 65, True),
    ("embedded", "embedding", "done", 85, True),
]


def test_a_scanned_pdf_emits_the_ocr_sequence_ending_indexed_done(
    store_dir: Path, settings: Any
) -> None:
    settings.OCR_REVIEW_THRESHOLD = 0.0
    key = put_object(store_dir, "jdih/scan/qanun-7.pdf", scan_pdf())

    run = ingest_event(doc_uploaded(key, "application/pdf"))

    assert run.code == 0, run.stderr
    assert run.wire == [*OCR_SEQUENCE, ("indexed", "indexed", "done", 100, True)]
    pending = run.values[1]
    assert (pending["aiDocumentId"], pending["error"], pending["meta"]) == (None, None, None)
    confidences = [c.ocr_confidence for c in Chunk.objects.all() if c.ocr_confidence is not None]
    assert run.values[3]["meta"] == {"ocrConfidence": min(confidences)}
    assert run.values[-1]["meta"]["ocrConfidence"] == min(confidences)


def test_a_scan_below_the_review_threshold_ends_indexed_needs_review(
    store_dir: Path, settings: Any
) -> None:
    settings.OCR_REVIEW_THRESHOLD = 0.999
    key = put_object(store_dir, "jdih/scan/qanun-8.pdf", scan_pdf())
    record = doc_uploaded(key, "application/pdf")

    run = ingest_event(record)

    assert run.code == 0, run.stderr
    assert run.wire == [*OCR_SEQUENCE, ("indexed", "indexed", "needs_review", 100, True)]
    document = Document.objects.get()
    indexed = Chunk.objects.filter(document=document, indexed=True).count()
    assert run.values[-1]["meta"]["chunkCount"] == indexed
    assert run.values[4]["meta"] == {"chunkCount": Chunk.objects.filter(document=document).count()}
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert job.state == JobState.NEEDS_REVIEW
