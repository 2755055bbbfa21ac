"""Admin uploads log the same stage events for the UI timeline, never to be published."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.jobs import UploadMeta, claim_next_upload_job, enqueue_upload, run_upload_job
from ingestion.models import JobState, StageEvent
from partner_events.outbox import backlog_size
from tests.partner_ingest._support import LEGAL_TEXT, schema_errors, store_dir

__all__ = ["store_dir"]

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_upload_job_logs_its_lifecycle_as_not_applicable(store_dir: Path) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("qanun-3.txt", LEGAL_TEXT.encode(), content_type="text/plain")
    queued = enqueue_upload(upload, meta=UploadMeta(), user=None)
    assert queued.job is not None
    job = claim_next_upload_job()
    assert job is not None and job.pk == queued.job.pk

    run_upload_job(job)

    job.refresh_from_db()
    assert job.state == JobState.DONE
    events = list(StageEvent.objects.filter(job=job).order_by("seq"))
    assert [e.routing_key for e in events] == [
        "fetched",
        "parsed",
        "chunked",
        "embedded",
        "indexed",
    ]
    assert {e.publish_status for e in events} == {"not_applicable"}
    assert {e.payload["jobId"] for e in events} == {str(job.pk)}
    assert events[-1].payload["registryId"] == str(job.document_id)
    assert all(schema_errors(e.payload) == [] for e in events)
    assert backlog_size() == 0
