"""An admin's "Jalankan ulang" of a failed Kafka job is picked up by the Kafka worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.jobs import requeue_job
from ingestion.models import IngestionJob, JobState
from partner_events.publisher import NullPublisher
from partner_events.worker.jobs import retry_deferred
from tests.partner_ingest.helpers import LEGAL_TEXT, doc_uploaded, ingest_event, put_object

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_requeued_failed_kafka_job_is_rerun_from_its_stored_event(store_dir: Path) -> None:
    record = doc_uploaded("jdih/qanun-terlambat.txt")
    assert ingest_event(record).code == 1
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert job.state == JobState.FAILED

    put_object(store_dir, "jdih/qanun-terlambat.txt", LEGAL_TEXT.encode())
    assert requeue_job(job, user=None)
    outcome = retry_deferred(NullPublisher(), retry_after_s=0)

    assert outcome is not None
    job.refresh_from_db()
    assert job.state == JobState.DONE, job.error
    assert job.document is not None


def test_nothing_is_rerun_while_no_kafka_job_waits(store_dir: Path) -> None:
    record = doc_uploaded("jdih/qanun-hilang.txt")
    ingest_event(record)
    assert retry_deferred(NullPublisher(), retry_after_s=0) is None
