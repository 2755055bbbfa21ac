"""A reviewed Kafka document gets indexed/done logged, and the drain loop publishes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from ingestion.models import Chunk, IngestionJob
from partner_events.models import StageEvent
from partner_events.outbox import backlog_size, drain_pending, record_terminal_after_review
from tests.partner_ingest.helpers import (
    RefusingPublisher,
    doc_uploaded,
    ingest_event,
    put_object,
    scan_pdf,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_terminal_after_review_counts_the_now_indexed_chunks(
    store_dir: Path, settings: Any
) -> None:
    settings.OCR_REVIEW_THRESHOLD = 0.999
    record = doc_uploaded(put_object(store_dir, "jdih/scan.pdf", scan_pdf()), "application/pdf")
    run = ingest_event(record)
    assert run.values[-1]["status"] == "needs_review"
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    Chunk.objects.filter(document=job.document).update(indexed=True, review_state="approved")

    with transaction.atomic():
        row = record_terminal_after_review(job)

    assert row.seq == len(run.lines) + 1
    assert backlog_size() == 1
    partner = RefusingPublisher(lambda event: False)
    assert drain_pending(partner) == 1
    (line,) = partner.lines
    value = line["value"]
    assert (line["routingKey"], value["stage"], value["status"]) == ("indexed", "indexed", "done")
    assert value["meta"]["chunkCount"] == Chunk.objects.filter(document=job.document).count()
    assert value["aiDocumentId"] == str(job.document_id)
    assert value["registryId"] == record["documentId"]
    assert StageEvent.objects.get(pk=row.pk).publish_status == "published"
