"""Liveness, readiness and metrics answer as the platform conventions require."""

from __future__ import annotations

import pytest
from django.test import Client

from aceh_rag.platform.drain import start_draining, stop_draining


def test_healthz_answers_without_touching_the_database(client: Client) -> None:
    # No django_db mark: pytest-django raises if the view touches the database.
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_reports_ready_when_the_database_answers(client: Client) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


@pytest.mark.django_db
def test_metrics_serve_prometheus_text_with_job_and_queue_series(client: Client) -> None:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    body = response.content.decode()
    assert "aceh_rag_queue_depth" in body
    assert 'aceh_rag_jobs{state="queued"}' in body
    assert "aceh_rag_stage_duration_seconds" in body
    assert "aceh_rag_jobs_processed" in body


@pytest.mark.django_db
def test_a_draining_web_process_answers_new_work_with_503_and_retry_after(client: Client) -> None:
    start_draining()
    try:
        page = client.get("/login/")
        health = client.get("/healthz")
    finally:
        stop_draining()
    assert page.status_code == 503
    assert int(page["Retry-After"]) >= 1
    assert health.status_code == 200


@pytest.mark.django_db
def test_the_login_page_is_served_in_indonesian(client: Client) -> None:
    response = client.get("/login/")
    assert response.status_code == 200
    assert "Kata sandi" in response.content.decode()
