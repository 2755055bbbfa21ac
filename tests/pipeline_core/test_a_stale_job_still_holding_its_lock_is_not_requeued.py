"""A ``processing`` upload job without a recent heartbeat is requeued only after a crash.

A worker still running it holds the document lock (a long embed reports no progress);
requeueing it then would start a second run of the same document.
"""

from __future__ import annotations

from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from ingestion.jobs import UploadMeta, enqueue_upload, requeue_stale_jobs
from ingestion.models import IngestionJob, JobState
from tests.pipeline_core.helpers import LEGAL_TEXT, upload_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("store_dir")]


def _other_session() -> psycopg.Connection:
    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    return psycopg.connect(autocommit=True, **params)


def _stale_job() -> IngestionJob:
    outcome = enqueue_upload(
        upload_file("qanun.txt", LEGAL_TEXT.encode()), meta=UploadMeta(), user=None
    )
    assert outcome.job is not None
    IngestionJob.objects.filter(pk=outcome.job.pk).update(
        state=JobState.PROCESSING, heartbeat_at=timezone.now() - timedelta(hours=1)
    )
    return outcome.job


def test_a_stale_job_whose_lock_is_held_by_a_live_worker_stays_processing() -> None:
    job = _stale_job()
    with _other_session() as other:
        other.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [job.lock_key])
        assert requeue_stale_jobs(timedelta(minutes=10)) == 0
        job.refresh_from_db()
        assert job.state == JobState.PROCESSING
    # The worker is gone (its session ended): now the job is an orphan.
    assert requeue_stale_jobs(timedelta(minutes=10)) == 1
    job.refresh_from_db()
    assert job.state == JobState.QUEUED
