"""An admin upload records its milestones on the job's timeline; nothing goes to the outbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.jobs import UploadMeta, claim_next_upload_job, enqueue_upload, run_upload_job
from ingestion.models import JobMilestone, JobState
from partner_events.models import StageEvent
from partner_events.outbox import backlog_size
from tests.partner_ingest.helpers import LEGAL_TEXT

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_upload_job_keeps_its_timeline_without_stage_events(store_dir: Path) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("qanun-3.txt", LEGAL_TEXT.encode(), content_type="text/plain")
    queued = enqueue_upload(upload, meta=UploadMeta(), user=None)
    assert queued.job is not None
    job = claim_next_upload_job()
    assert job is not None and job.pk == queued.job.pk

    run_upload_job(job)

    job.refresh_from_db()
    assert job.state == JobState.DONE
    timeline = JobMilestone.objects.filter(job=job).order_by("seq")
    assert [(m.seq, m.milestone) for m in timeline] == [
        (1, "fetched"),
        (2, "parsed"),
        (3, "chunked"),
        (4, "embedded"),
        (5, "indexed"),
    ]
    assert not StageEvent.objects.filter(job=job).exists()
    assert backlog_size() == 0
