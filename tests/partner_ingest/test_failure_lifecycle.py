"""Failures: a fetch failure is only failed/failed; after fetch, fetched then failed/failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.models import IngestionJob, JobState
from partner_events.models import StageEvent
from tests.partner_ingest.helpers import doc_uploaded, ingest_event, put_object

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_missing_object_emits_only_failed_with_the_reason(store_dir: Path) -> None:
    record = doc_uploaded("jdih/never-uploaded.txt")

    run = ingest_event(record)

    assert run.code == 1
    assert run.wire == [("failed", "failed", "failed", 100, False)]
    failed = run.values[0]
    assert "jdih/never-uploaded.txt" in failed["error"]
    assert failed["registryId"] == record["documentId"]
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert (job.state, job.error) == (JobState.FAILED, failed["error"])


def test_a_corrupt_pdf_emits_fetched_then_failed(store_dir: Path) -> None:
    key = put_object(store_dir, "jdih/rusak.pdf", b"%PDF-1.7\n" + b"\x00garbage" * 64)

    run = ingest_event(doc_uploaded(key, "application/pdf"))

    assert run.code == 1
    assert [w[:4] for w in run.wire] == [
        ("fetched", "extracting", "done", 10),
        ("failed", "failed", "failed", 100),
    ]
    assert run.values[-1]["error"]
    assert run.values[-1]["meta"] is None


def test_an_empty_text_file_fails_after_fetch_with_an_indonesian_reason(store_dir: Path) -> None:
    key = put_object(store_dir, "jdih/kosong.txt", b"   \n\n  ")
    record = doc_uploaded(key)

    run = ingest_event(record)

    assert run.code == 1
    assert [w[0] for w in run.wire] == ["fetched", "failed"]
    assert "teks" in run.values[-1]["error"].lower()
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert StageEvent.objects.filter(job=job).count() == 2
