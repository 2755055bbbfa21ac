"""A redelivery never takes over a job whose document lock is still held.

A long step (embedding a large document) reports no heartbeat for minutes; only the
document lock tells that run apart from a crash, so a stale heartbeat alone must not
hand the job to a second worker.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from ingestion.models import IngestionJob, JobOrigin, JobState
from partner_events.handler import claim_job

pytestmark = pytest.mark.django_db

LOCK_KEY = "doc-uploaded:long-running-scan"
_LOCK = "SELECT pg_advisory_lock(hashtextextended(%s, 0))"


@pytest.fixture
def lock_held_elsewhere() -> Iterator[None]:
    """The document lock held by another session, as a live worker holds it."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute(_LOCK, [LOCK_KEY])
        yield
    finally:
        other.close()


def _stale_processing_job() -> IngestionJob:
    long_ago = timezone.now() - timedelta(hours=2)
    return IngestionJob.objects.create(
        partner_job_id=str(uuid.uuid4()),
        origin=JobOrigin.KAFKA,
        state=JobState.PROCESSING,
        lock_key=LOCK_KEY,
        started_at=long_ago,
        heartbeat_at=long_ago,
        attempts=1,
        stage="embedded",
        progress=85,
    )


def test_a_stale_job_whose_lock_is_held_is_deferred_without_touching_the_row(
    lock_held_elsewhere: None,
) -> None:
    job = _stale_processing_job()

    claim = claim_job(str(job.partner_job_id), payload={"x": 1}, lock_key=LOCK_KEY)

    assert claim.refused is not None and claim.refused.outcome == "deferred"
    job.refresh_from_db()
    assert (job.state, job.attempts, job.stage, job.progress) == (
        JobState.PROCESSING,
        1,
        "embedded",
        85,
    )


def test_a_stale_job_whose_lock_is_free_is_taken_over() -> None:
    job = _stale_processing_job()

    claim = claim_job(str(job.partner_job_id), payload={"x": 1}, lock_key=LOCK_KEY)

    assert claim.refused is None
    job.refresh_from_db()
    assert (job.state, job.attempts) == (JobState.PROCESSING, 2)
