"""GET /api/jobs/{id} speaks the conventions' poll shape; unknown jobs are JOB_UNKNOWN."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from ingestion.models import IngestionJob, JobOrigin, JobState
from tests.api.helpers import bearer, issue_token
from tests.search.helpers import make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def auth() -> dict[str, str]:
    return bearer(issue_token())


def job(state: str = JobState.QUEUED, **fields: object) -> IngestionJob:
    return IngestionJob.objects.create(origin=JobOrigin.UPLOAD, state=state, **fields)


def poll(client: Client, auth: dict[str, str], job_id: object) -> dict[str, object]:
    response = client.get(f"/api/jobs/{job_id}", headers=auth)
    assert response.status_code == 200, response.content
    return response.json()


def test_a_waiting_job_reports_its_queue_position_and_eta(client: Client, auth: dict) -> None:
    job()
    second = job()
    body = poll(client, auth, second.pk)
    assert body["status"] == "queued"
    assert body["queue_position"] == 2
    assert isinstance(body["eta_ms"], int) and body["eta_ms"] > 0
    assert str(body["status_text"]).startswith("Dalam antrean — posisi 2")


def test_a_running_job_reports_stage_and_progress(client: Client, auth: dict) -> None:
    running = job(JobState.PROCESSING, stage="chunked", progress=65)
    body = poll(client, auth, running.pk)
    assert (body["status"], body["stage"], body["progress"]) == ("processing", "chunked", 65)
    assert body["queue_position"] is None


def test_needs_review_is_completed_with_a_detail(client: Client, auth: dict) -> None:
    document = make_document("Pindaian")
    finished = job(JobState.NEEDS_REVIEW, document=document, progress=100)
    body = poll(client, auth, finished.pk)
    assert (body["status"], body["detail"]) == ("completed", "needs_review")
    assert body["result"] == {"document_id": str(document.pk), "outcome": "needs_review"}


def test_a_skipped_job_is_completed_with_a_detail(client: Client, auth: dict) -> None:
    body = poll(client, auth, job(JobState.SKIPPED).pk)
    assert (body["status"], body["detail"]) == ("completed", "skipped")


def test_a_failed_job_carries_the_reason(client: Client, auth: dict) -> None:
    failed = job(JobState.FAILED, error="PDF rusak / tidak dapat dibaca")
    body = poll(client, auth, failed.pk)
    assert body["status"] == "failed"
    assert body["error"] == {"code": "INGEST_FAILED", "message": "PDF rusak / tidak dapat dibaca"}


def test_a_job_can_be_polled_by_the_partner_job_id(client: Client, auth: dict) -> None:
    partner = uuid.uuid4()
    kafka_job = IngestionJob.objects.create(
        origin=JobOrigin.KAFKA, state=JobState.DONE, partner_job_id=partner
    )
    body = poll(client, auth, partner)
    assert body["job_id"] == str(kafka_job.pk)
    assert (body["status"], body["detail"]) == ("completed", None)


@pytest.mark.parametrize("job_id", [uuid.uuid4(), "bukan-uuid"])
def test_an_unknown_job_is_404_job_unknown(client: Client, auth: dict, job_id: object) -> None:
    response = client.get(f"/api/jobs/{job_id}", headers=auth)
    assert response.status_code == 404
    assert response.json()["code"] == "JOB_UNKNOWN"
