"""Another process holds doc-uploaded:<sourceKey>: deferred, no event, payload kept."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from ingestion.models import IngestionJob, JobState
from partner_events.handler import ConsumerOutcome, handle_stored_job
from partner_events.models import StageEvent
from partner_events.publisher import NullPublisher
from tests.partner_ingest.helpers import LEGAL_TEXT, doc_uploaded, ingest_event, put_object

pytestmark = pytest.mark.django_db(transaction=True)


def _other_connection() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.connect(**params, autocommit=True)


def test_a_held_document_lock_defers_the_record_and_a_rerun_completes_it(
    store_dir: Path,
) -> None:
    source_key = f"jdih-{uuid.uuid4()}"
    record = doc_uploaded(
        put_object(store_dir, "jdih/qanun.txt", LEGAL_TEXT.encode()), sourceKey=source_key
    )
    with _other_connection() as other:
        other.execute(
            "SELECT pg_advisory_lock(hashtextextended(%s, 0))", [f"doc-uploaded:{source_key}"]
        )
        deferred = ingest_event(record)

    assert (deferred.code, deferred.lines) == (3, [])
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert job.state == JobState.DEFERRED
    assert job.payload == json.loads(json.dumps(record))
    assert StageEvent.objects.filter(job=job).count() == 0

    rerun = handle_stored_job(job, publisher=NullPublisher())

    assert rerun.outcome is ConsumerOutcome.INDEXED
    job.refresh_from_db()
    assert job.state == JobState.DONE
    assert set(StageEvent.objects.filter(job=job).values_list("publish_status", flat=True)) == {
        "not_applicable"
    }
