"""publish_job saves each event's status before it sends the next, so a crash part-way
through a job's run of events leaves the sent ones published: the drain that follows
never sends an earlier event after a later one."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from django.db import connection, transaction

from ingestion.models import IngestionJob
from partner_events.handler import handle_record
from partner_events.models import PublishStatus, StageEvent
from partner_events.outbox import drain_pending, publish_job
from partner_events.publisher import DeliveryResult, OutgoingEvent, StdoutPublisher
from tests.partner_ingest.helpers import LEGAL_TEXT, RefusingPublisher, doc_uploaded, put_object

pytestmark = pytest.mark.django_db(transaction=True)


class CrashingPublisher(StdoutPublisher):
    """Delivers ``good`` events, then raises as a process dying mid-run would."""

    name = "crashing"
    delivers_to_partner = True

    def __init__(self, good: int) -> None:
        super().__init__(io.StringIO())
        self.good = good

    def deliver(self, events: Sequence[OutgoingEvent]) -> list[DeliveryResult]:
        if self.good == 0:
            raise RuntimeError("proses mati di tengah pengiriman")
        self.good -= 1
        return super().deliver(events)


def _advisory_locks_held() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def _job_with_unsent_events(store_dir: Path, name: str) -> IngestionJob:
    record = doc_uploaded(put_object(store_dir, f"jdih/{name}.txt", LEGAL_TEXT.encode()))
    handle_record(json.dumps(record).encode(), publisher=RefusingPublisher(lambda e: True))
    return IngestionJob.objects.get(partner_job_id=record["jobId"])


def test_events_sent_before_a_crash_stay_published_and_the_rest_follow_in_order(
    store_dir: Path,
) -> None:
    job = _job_with_unsent_events(store_dir, "crash")

    assert publish_job(job, CrashingPublisher(good=2)) == 2
    assert _advisory_locks_held() == 0

    statuses = list(
        StageEvent.objects.filter(job=job).order_by("seq").values_list("publish_status", flat=True)
    )
    assert statuses == [PublishStatus.PUBLISHED] * 2 + [PublishStatus.PENDING] * 3
    out = io.StringIO()
    drain_pending(StdoutPublisher(out), limit=100)
    progress = [json.loads(line)["value"]["progress"] for line in out.getvalue().splitlines()]
    assert progress == [65, 85, 100]


def test_inside_a_transaction_a_crash_leaves_the_transaction_usable(store_dir: Path) -> None:
    job = _job_with_unsent_events(store_dir, "nested")

    with transaction.atomic():
        assert publish_job(job, CrashingPublisher(good=1)) == 1
        published = StageEvent.objects.filter(job=job, publish_status=PublishStatus.PUBLISHED)
        assert published.count() == 0  # the savepoint rolled back with the crash
    assert _advisory_locks_held() == 0
    assert StageEvent.objects.filter(job=job, publish_status=PublishStatus.PENDING).count() == 4
