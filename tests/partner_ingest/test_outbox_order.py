"""A broker outage never reorders a job's events: the backlog drains in seq order per job."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ingestion.models import IngestionJob
from partner_events.handler import ConsumerOutcome, handle_record
from partner_events.models import StageEvent
from partner_events.outbox import backlog_size, drain_pending
from partner_events.publisher import StdoutPublisher
from tests.partner_ingest.helpers import LEGAL_TEXT, RefusingPublisher, doc_uploaded, put_object

pytestmark = pytest.mark.django_db(transaction=True)


def _raw(record: dict[str, object]) -> bytes:
    return json.dumps(record).encode()


def test_a_failing_publisher_keeps_everything_and_a_working_one_drains_in_order(
    store_dir: Path,
) -> None:
    records = [
        doc_uploaded(put_object(store_dir, f"jdih/q{n}.txt", f"{LEGAL_TEXT}\n{n}".encode()))
        for n in range(2)
    ]
    down = RefusingPublisher(lambda event: True)

    outcomes = [handle_record(_raw(r), publisher=down) for r in records]

    # The documents are processed anyway (the contract), and only heads were ever tried.
    assert [o.outcome for o in outcomes] == [ConsumerOutcome.INDEXED] * 2
    assert backlog_size() == 10
    assert {progress for _key, progress in down.attempted} == {10}

    out = io.StringIO()
    assert drain_pending(StdoutPublisher(out), limit=100) == 10

    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    for record in records:
        mine = [line["value"]["progress"] for line in lines if line["key"] == record["jobId"]]
        assert mine == [10, 25, 65, 85, 100]
    assert backlog_size() == 0


def test_a_refused_event_holds_back_every_later_event_of_its_job(store_dir: Path) -> None:
    record = doc_uploaded(put_object(store_dir, "jdih/q.txt", LEGAL_TEXT.encode()))
    flaky = RefusingPublisher(lambda event: event.routing_key == "parsed")

    handle_record(_raw(record), publisher=flaky)

    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    statuses = list(
        StageEvent.objects.filter(job=job).order_by("seq").values_list("publish_status", flat=True)
    )
    assert statuses == ["published", "failed", "pending", "pending", "pending"]
    assert [line["routingKey"] for line in flaky.lines] == ["fetched"]

    healed = RefusingPublisher(lambda event: False)
    assert drain_pending(healed) == 4
    assert [line["routingKey"] for line in healed.lines] == [
        "parsed",
        "chunked",
        "embedded",
        "indexed",
    ]
    assert StageEvent.objects.get(job=job, seq=2).publish_attempts == 2
