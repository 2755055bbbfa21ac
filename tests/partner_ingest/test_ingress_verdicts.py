"""Rejects and structured skips end at ingress: no fetch, at most one terminal event."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from ingestion.models import Document, IngestionJob, JobState
from tests.partner_ingest.helpers import doc_uploaded, ingest_event

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_correlatable_malformed_event_emits_failed_and_keeps_the_payload(
    store_dir: Path,
) -> None:
    record = doc_uploaded("jdih/qanun.txt", mimeType="application/x-unknown")

    run = ingest_event(record)

    assert run.code == 1
    assert run.wire == [("failed", "failed", "failed", 100, False)]
    assert "mimeType" in run.values[0]["error"] or "MIME" in run.values[0]["error"]
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert job.state == JobState.FAILED
    assert job.payload == record


def test_a_malformed_event_without_a_job_id_emits_nothing_and_stores_nothing(
    store_dir: Path,
) -> None:
    run = ingest_event(b'{"jobId": "bukan-uuid", "documentId": 3}')

    assert run.code == 1
    assert run.lines == []
    assert IngestionJob.objects.count() == 0


def test_an_explicit_invalid_registry_id_is_stored_but_not_published(store_dir: Path) -> None:
    record = doc_uploaded("jdih/a.txt", registryId="bukan-uuid")

    run = ingest_event(record)

    assert (run.code, run.lines) == (1, [])
    assert IngestionJob.objects.get(partner_job_id=record["jobId"]).state == JobState.FAILED


def test_a_structured_source_is_skipped_without_fetching(store_dir: Path) -> None:
    # The object does not exist: a fetch would fail, so a skip proves there was none.
    record = doc_uploaded(
        "satudata/penduduk.csv", "text/csv", collectionName="SatuData", registryId=str(uuid.uuid4())
    )

    run = ingest_event(record)

    assert run.code == 0, run.stderr
    assert run.wire == [("skipped", "indexed", "skipped", 100, False)]
    assert run.values[0]["meta"] == {"chunkCount": 0}
    assert run.values[0]["registryId"] == record["registryId"]
    assert Document.objects.count() == 0
    assert IngestionJob.objects.get(partner_job_id=record["jobId"]).state == JobState.SKIPPED
