"""Two workers receiving the same jobId at once: exactly one claims it."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection

from ingestion.models import IngestionJob
from partner_events.handler import Claim, claim_job

pytestmark = pytest.mark.django_db(transaction=True)


def test_only_one_of_two_racing_deliveries_claims_the_job() -> None:
    job_id = str(uuid.uuid4())
    barrier = threading.Barrier(2)
    claims: list[Claim] = []

    def deliver() -> None:
        try:
            barrier.wait()
            claims.append(claim_job(job_id, payload={"jobId": job_id}, lock_key="doc-uploaded:x"))
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert len(claims) == 2
    winners = [c for c in claims if c.refused is None]
    losers = [c for c in claims if c.refused is not None]
    assert len(winners) == 1
    assert losers[0].refused is not None and losers[0].refused.outcome == "deferred"
    assert IngestionJob.objects.filter(partner_job_id=job_id).count() == 1
