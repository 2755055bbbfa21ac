"""``manage.py ingest_worker`` drains the upload queue through the shared pipeline."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from ingestion.jobs import UploadMeta, enqueue_upload
from ingestion.models import Document, DocumentStatus, IngestionJob, JobOrigin, JobState
from tests.pipeline_core.helpers import LEGAL_TEXT, upload_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("store_dir")]


def _queue(n: int) -> list[IngestionJob]:
    jobs = []
    for i in range(n):
        outcome = enqueue_upload(
            upload_file(f"qanun-{i}.txt", f"{LEGAL_TEXT}\nPasal {i + 3}\n\nTambahan {i}.".encode()),
            meta=UploadMeta(title=f"Qanun Aceh Nomor {i + 1} Tahun 2026"),
            user=None,
        )
        assert outcome.job is not None
        jobs.append(outcome.job)
    return jobs


def test_once_processes_every_queued_upload_and_exits() -> None:
    jobs = _queue(2)
    call_command("ingest_worker", "--once")
    for job in jobs:
        job.refresh_from_db()
        assert job.state == JobState.DONE, job.error
        assert (job.progress, job.finished_at is not None) == (100, True)
        assert job.document is not None
        assert job.document.status == DocumentStatus.INDEXED
    titles = set(Document.objects.values_list("title", flat=True))
    assert titles == {"Qanun Aceh Nomor 1 Tahun 2026", "Qanun Aceh Nomor 2 Tahun 2026"}


def test_a_stale_processing_job_is_requeued_and_finished_on_start() -> None:
    job = _queue(1)[0]
    IngestionJob.objects.filter(pk=job.pk).update(
        state=JobState.PROCESSING, heartbeat_at=timezone.now() - timedelta(hours=1)
    )
    call_command("ingest_worker", "--once", "--stale-minutes", "10")
    job.refresh_from_db()
    assert job.state == JobState.DONE
    assert job.attempts == 1
    assert IngestionJob.objects.filter(origin=JobOrigin.UPLOAD, state=JobState.QUEUED).count() == 0
