"""A deferred job ahead of you is still ahead: the worker picks it up again first."""

from __future__ import annotations

import pytest

from ingestion.jobs import UploadMeta, enqueue_upload, queue_info
from ingestion.models import IngestionJob, JobState
from ingestion.views.status import live_statuses
from tests.pipeline_core.helpers import LEGAL_TEXT, upload_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("store_dir")]


def _queue(n: int) -> list[IngestionJob]:
    jobs = []
    for i in range(n):
        job = enqueue_upload(
            upload_file(f"perda-{i}.txt", f"{LEGAL_TEXT}\nPasal {i + 5}".encode()),
            meta=UploadMeta(),
            user=None,
        ).job
        assert job is not None
        jobs.append(job)
    return jobs


def test_a_deferred_job_ahead_counts_in_the_position_on_every_page() -> None:
    first, second, third = _queue(3)
    IngestionJob.objects.filter(pk=first.pk).update(state=JobState.DEFERRED)

    assert queue_info(third).position == 3
    assert queue_info(third).text.startswith("Dalam antrean — posisi 3 ")
    listed = live_statuses(IngestionJob.objects.filter(pk__in=[second.pk, third.pk]))
    assert listed[third.pk].text.startswith("Dalam antrean — posisi 3 ")
    assert listed[second.pk].text.startswith("Dalam antrean — posisi 2 ")


def test_finished_jobs_ahead_do_not_count() -> None:
    first, second = _queue(2)
    IngestionJob.objects.filter(pk=first.pk).update(state=JobState.DONE)
    assert queue_info(second).position == 1
