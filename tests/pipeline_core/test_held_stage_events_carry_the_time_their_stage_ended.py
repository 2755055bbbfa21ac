"""Held milestones are published at the end, but each event's ``ts`` is its stage's end."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from ingestion.models import IngestionJob, JobMilestone, JobOrigin
from ingestion.pipeline.runner import Outcome, ingest
from partner_events.lifecycle import StageEventObserver
from partner_events.models import StageEvent
from tests.pipeline_core.helpers import make_request, put_object, text_pdf

pytestmark = pytest.mark.django_db


def _ts(event: StageEvent) -> datetime:
    return datetime.fromisoformat(event.payload["ts"].replace("Z", "+00:00"))


def test_parse_chunk_and_embed_events_keep_their_own_times(
    store_dir: Path,
) -> None:
    key = put_object(store_dir, "jdih/qanun-waktu.pdf", text_pdf())
    job = IngestionJob.objects.create(origin=JobOrigin.UPLOAD)
    result = ingest(make_request(key, "pdf"), StageEventObserver(job))

    assert result.outcome is Outcome.INDEXED, result.error
    events = list(StageEvent.objects.filter(job=job).order_by("seq"))
    by_key = {event.routing_key: _ts(event) for event in events}
    assert list(by_key) == ["fetched", "parsed", "chunked", "embedded", "indexed"]
    times = list(by_key.values())
    assert times == sorted(times)
    # Embedding runs the model and indexing writes rows: both take measurable time, so the
    # held events cannot all share the terminal event's moment any more.
    assert by_key["parsed"] < by_key["embedded"] < by_key["indexed"]
    # The job's own timeline keeps the same moments (the events' ts are in milliseconds).
    timeline = {m.milestone: m.created_at for m in JobMilestone.objects.filter(job=job)}
    assert list(timeline) == list(by_key)
    assert all(abs(timeline[key] - by_key[key]) < timedelta(seconds=0.1) for key in by_key)
