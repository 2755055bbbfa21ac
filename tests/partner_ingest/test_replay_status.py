"""replay_status re-sends a job's logged events without appending any."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from ingestion.models import IngestionJob
from partner_events.models import StageEvent
from partner_events.outbox import backlog_size, drain_pending, replay_job
from tests.partner_ingest.helpers import (
    LEGAL_TEXT,
    RefusingPublisher,
    doc_uploaded,
    ingest_event,
    put_object,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _replay(job_id: str, *options: str) -> tuple[int, list[dict[str, object]]]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        call_command("replay_status", job_id, *options, stdout=out, stderr=err)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.fixture
def finished(store_dir: Path) -> tuple[dict[str, object], list[dict[str, object]]]:
    record = doc_uploaded(put_object(store_dir, "jdih/q.txt", LEGAL_TEXT.encode()))
    run = ingest_event(record)
    assert run.code == 0, run.stderr
    return record, run.lines


def test_replaying_a_job_prints_its_logged_events_in_order(finished: tuple) -> None:
    record, lines = finished

    code, replayed = _replay(str(record["jobId"]), "--publish", "stdout")

    assert code == 0
    assert replayed == lines
    assert StageEvent.objects.count() == len(lines)


def test_terminal_only_replays_the_last_terminal_event(finished: tuple) -> None:
    record, lines = finished

    code, replayed = _replay(str(record["jobId"]), "--terminal-only", "--publish", "stdout")

    assert code == 0
    assert replayed == lines[-1:]


def test_an_unknown_job_is_a_usage_error(finished: tuple) -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("replay_status", "00000000-0000-4000-8000-000000000000")


def test_a_scheduled_replay_is_sent_by_the_drain_loop(finished: tuple) -> None:
    record, lines = finished
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])

    assert replay_job(job, terminal_only=True) == 1
    assert backlog_size() == 1
    partner = RefusingPublisher(lambda event: False)
    assert drain_pending(partner) == 1

    assert [line["value"] for line in partner.lines] == [lines[-1]["value"]]
    assert StageEvent.objects.filter(job=job).count() == len(lines)
