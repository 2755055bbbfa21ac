"""An upload job whose run raises fails by itself; the worker goes on with the queue."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from ingestion import jobs
from ingestion.errors import INTERNAL_ERROR
from ingestion.jobs import UploadMeta, enqueue_upload
from ingestion.management.commands import ingest_worker
from ingestion.models import IngestionJob, JobState
from tests.pipeline_core.helpers import LEGAL_TEXT, upload_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("store_dir")]


def _queue(name: str, text: str) -> IngestionJob:
    outcome = enqueue_upload(upload_file(name, text.encode()), meta=UploadMeta(), user=None)
    assert outcome.job is not None
    return outcome.job


def test_a_job_that_raises_is_failed_and_the_next_one_still_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    poison = _queue("racun.txt", LEGAL_TEXT + "\nPasal 9\n\nRacun.")
    healthy = _queue("sehat.txt", LEGAL_TEXT)

    def run(job: IngestionJob) -> Any:
        if job.pk == poison.pk:
            raise RuntimeError("parser library crashed")
        return jobs.run_upload_job(job)

    monkeypatch.setattr(ingest_worker, "run_upload_job", run)
    call_command("ingest_worker", "--once")
    poison.refresh_from_db()
    healthy.refresh_from_db()
    assert (poison.state, poison.error) == (JobState.FAILED, INTERNAL_ERROR)
    assert poison.finished_at is not None
    assert healthy.state == JobState.DONE
