"""The documents list filters, and only its unfinished rows keep refreshing through htmx."""

from __future__ import annotations

import pytest
from django.test import Client

from ingestion.models import DocumentStatus, JobState, SourceType
from tests.ui.helpers import make_document, make_job


@pytest.mark.django_db
def test_filters_by_status_source_year_and_title(admin_client: Client) -> None:
    make_document(title="Qanun Retribusi Kesehatan", source_type=SourceType.JDIH)
    make_document(
        title="Laporan PPID",
        source_type=SourceType.PPID,
        status=DocumentStatus.FAILED,
        metadata={"source_key": "p", "source_version": "1", "source": {"tahun": "2019"}},
    )
    assert "Laporan PPID" not in admin_client.get("/documents/?status=indexed").content.decode()
    assert "Laporan PPID" in admin_client.get("/documents/?source_type=PPID").content.decode()
    by_year = admin_client.get("/documents/?tahun=2019").content.decode()
    assert "Laporan PPID" in by_year and "Retribusi" not in by_year
    by_title = admin_client.get("/documents/?q=retribusi").content.decode()
    assert "Qanun Retribusi Kesehatan" in by_title and "Laporan PPID" not in by_title


@pytest.mark.django_db
def test_only_unfinished_rows_poll(admin_client: Client) -> None:
    done = make_document(status=DocumentStatus.INDEXED)
    waiting = make_document(status=DocumentStatus.QUEUED)
    make_job(waiting, state=JobState.QUEUED)
    body = admin_client.get("/documents/").content.decode()
    assert f'hx-get="/documents/?row={waiting.pk}"' in body
    assert f'hx-get="/documents/?row={done.pk}"' not in body
    assert "Dalam antrean — posisi 1" in body


@pytest.mark.django_db
def test_the_row_partial_stops_polling_once_settled(admin_client: Client) -> None:
    document = make_document(status=DocumentStatus.PROCESSING)
    job = make_job(document, state=JobState.PROCESSING, stage="chunked", progress=60)
    live = admin_client.get(f"/documents/?row={document.pk}", HTTP_HX_REQUEST="true")
    body = live.content.decode()
    assert body.lstrip().startswith("<tr") and 'hx-trigger="every 2s"' in body
    assert '<progress class="progress" max="100" value="60"' in body and "Pemotongan teks" in body
    document.status = DocumentStatus.FAILED
    document.failure_reason = "PDF rusak / tidak dapat dibaca"
    document.save()
    job.state = JobState.FAILED
    job.save()
    settled = admin_client.get(f"/documents/?row={document.pk}", HTTP_HX_REQUEST="true")
    text = settled.content.decode()
    assert "hx-trigger" not in text and "PDF rusak / tidak dapat dibaca" in text


@pytest.mark.django_db
def test_a_gpu_wait_shows_the_jobs_status_text(admin_client: Client) -> None:
    document = make_document(status=DocumentStatus.PROCESSING)
    make_job(
        document,
        state=JobState.PROCESSING,
        stage="parsed",
        status_text="Dalam antrean GPU — posisi 4 (±3 menit)",
    )
    body = admin_client.get("/documents/").content.decode()
    assert "Dalam antrean GPU — posisi 4 (±3 menit)" in body


@pytest.mark.django_db
def test_uploads_without_a_document_yet_are_listed_as_waiting(admin_client: Client) -> None:
    make_job(None, state=JobState.QUEUED, payload={"title": "Pergub 7/2026"})
    body = admin_client.get("/documents/").content.decode()
    assert "Pergub 7/2026" in body and "Dalam antrean — posisi 1" in body
