"""Kafka jobs by jobId: the original event, stage events with publish outcome, re-run."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from ingestion.models import DocumentStatus, IngestionJob, JobOrigin, JobState
from partner_events.models import PublishStatus, StageEvent
from tests.ui.helpers import make_document, make_job


def _kafka_job(state: str = JobState.DONE) -> tuple[IngestionJob, uuid.UUID]:
    job_id = uuid.uuid4()
    document = make_document(
        status=DocumentStatus.FAILED if state == JobState.FAILED else "indexed"
    )
    job = make_job(
        document,
        origin=JobOrigin.KAFKA,
        state=state,
        partner_job_id=job_id,
        error="PDF rusak / tidak dapat dibaca" if state == JobState.FAILED else "",
        payload={"jobId": str(job_id), "storageKey": "jdih/a.pdf", "title": "Qanun"},
    )
    StageEvent.objects.create(
        job=job,
        seq=1,
        routing_key="fetched",
        topic="doc.extracted",
        payload={"stage": "extracting", "status": "started"},
        publish_status=PublishStatus.PUBLISHED,
    )
    StageEvent.objects.create(
        job=job,
        seq=2,
        routing_key="failed",
        topic="doc.indexed",
        payload={"stage": "failed", "status": "failed"},
        publish_status=PublishStatus.FAILED,
        publish_error="broker tidak tersedia",
    )
    return job, job_id


@pytest.mark.django_db
def test_a_job_page_shows_the_event_and_each_publish_outcome(admin_client: Client) -> None:
    _, job_id = _kafka_job()
    body = admin_client.get(f"/jobs/{job_id}/").content.decode()
    assert "storageKey" in body and "jdih/a.pdf" in body
    assert "doc.extracted" in body and "doc.indexed" in body
    assert "Terbit" in body and "Gagal terbit (akan dicoba lagi)" in body
    assert "broker tidak tersedia" in body
    assert "1 peristiwa tahap belum terbit" in body


@pytest.mark.django_db
def test_the_jobs_list_finds_a_job_by_its_job_id(admin_client: Client) -> None:
    _, job_id = _kafka_job()
    _kafka_job()
    body = admin_client.get(f"/jobs/?q={job_id}").content.decode()
    assert str(job_id) in body and body.count('class="mono small"') == 1


@pytest.mark.django_db
def test_a_failed_job_can_be_run_again(admin_client: Client) -> None:
    job, job_id = _kafka_job(JobState.FAILED)
    response = admin_client.post(f"/jobs/{job_id}/rerun")
    assert response.status_code == 302
    job.refresh_from_db()
    assert job.state == JobState.QUEUED and job.error == ""


@pytest.mark.django_db
def test_re_publishing_marks_the_terminal_event_pending_again(admin_client: Client) -> None:
    pytest.importorskip("partner_events.outbox")
    job, job_id = _kafka_job()
    StageEvent.objects.filter(job=job, seq=2).update(publish_status=PublishStatus.PUBLISHED)
    admin_client.post(f"/jobs/{job_id}/replay")
    statuses = dict(StageEvent.objects.filter(job=job).values_list("seq", "publish_status"))
    assert statuses[1] == PublishStatus.PUBLISHED
    assert statuses[2] == PublishStatus.PENDING
