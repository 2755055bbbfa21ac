"""A job whose lock key is longer than its column is still recognised as running.

The pipeline locks the full ``doc-uploaded:<sourceKey>``; the job row keeps only the
first characters. Crash recovery must probe the lock the pipeline really holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from ingestion.models import IngestionJob, JobOrigin, JobState
from partner_events.worker.jobs import reclaim_orphans
from tests.partner_ingest.helpers import doc_uploaded

pytestmark = pytest.mark.django_db

SOURCE_KEY = "jdih-" + "katalog-" * 100
FULL_LOCK_KEY = f"doc-uploaded:{SOURCE_KEY}"
_LOCK = "SELECT pg_advisory_lock(hashtextextended(%s, 0))"


@pytest.fixture
def full_key_locked_elsewhere() -> Iterator[None]:
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute(_LOCK, [FULL_LOCK_KEY])
        yield
    finally:
        other.close()


def test_a_long_run_under_a_long_source_key_is_not_reclaimed_as_an_orphan(
    full_key_locked_elsewhere: None,
) -> None:
    payload = doc_uploaded("jdih/qanun.txt", sourceKey=SOURCE_KEY)
    long_ago = timezone.now() - timedelta(hours=1)
    job = IngestionJob.objects.create(
        partner_job_id=payload["jobId"],
        origin=JobOrigin.KAFKA,
        state=JobState.PROCESSING,
        payload=payload,
        lock_key=FULL_LOCK_KEY[:600],
        started_at=long_ago,
        heartbeat_at=long_ago,
    )
    assert len(FULL_LOCK_KEY) > 600

    reclaimed = reclaim_orphans(grace_s=1.0)

    assert reclaimed == []
    job.refresh_from_db()
    assert job.state == JobState.PROCESSING
