"""POST /api/documents queues an upload; GET /api/documents/{id} shows editions and chunks."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from ingestion.models import IngestionJob, JobState
from tests.api.helpers import bearer, issue_token
from tests.search.helpers import add_chunk, make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def auth(tmp_path: Path) -> Iterator[dict[str, str]]:
    with override_settings(OBJECT_STORAGE_URL=(tmp_path / "store").as_uri()):
        yield bearer(issue_token())


def upload(client: Client, auth: dict[str, str], name: str = "qanun-3-2026.txt") -> Any:
    data = {
        "file": SimpleUploadedFile(
            name, b"QANUN ACEH NOMOR 3 TAHUN 2026\nPasal 1\nIsi.", "text/plain"
        ),
        "title": "Qanun Aceh Nomor 3 Tahun 2026",
        "jenis": "Qanun Aceh",
        "tahun": "2026",
    }
    return client.post("/api/documents", data=data, headers=auth)


def test_an_upload_is_queued_as_a_job_with_its_metadata(client: Client, auth: dict) -> None:
    response = upload(client, auth)
    assert response.status_code == 202
    body = response.json()
    job = IngestionJob.objects.get(pk=body["jobId"])
    assert job.state == JobState.QUEUED
    assert job.payload["title"] == "Qanun Aceh Nomor 3 Tahun 2026"
    assert job.payload["source_metadata"] == {"jenis": "Qanun Aceh", "tahun": "2026"}
    assert body["duplicate"] is False


def test_uploading_the_same_bytes_again_returns_the_waiting_job(client: Client, auth: dict) -> None:
    first = upload(client, auth).json()
    again = upload(client, auth)
    assert again.status_code == 200
    assert again.json()["duplicate"] is True
    assert again.json()["jobId"] == first["jobId"]


def test_an_unsupported_file_is_rejected_with_a_reason(client: Client, auth: dict) -> None:
    response = upload(client, auth, name="program.exe")
    assert response.status_code == 400
    assert response.json()["code"] == "UPLOAD_REJECTED"
    assert "tidak didukung" in response.json()["detail"]


def test_a_document_shows_its_chunk_counts_and_editions(client: Client, auth: dict) -> None:
    old = make_document("Qanun Parkir", source_key="jdih-parkir", source_version="v1")
    add_chunk(old, "Tarif parkir lama")
    new = make_document("Qanun Parkir", source_key="jdih-parkir", source_version="v2")
    add_chunk(new, "Tarif parkir baru")
    add_chunk(new, "Bagian buram", indexed=False)
    body = client.get(f"/api/documents/{new.pk}", headers=auth).json()
    assert body["chunks"] == {"total": 2, "indexed": 1, "parked": 1}
    assert [e["sourceVersion"] for e in body["editions"]] == ["v2", "v1"]
    assert [e["latest"] for e in body["editions"]] == [True, False]


@pytest.mark.parametrize("document_id", [uuid.uuid4(), "xyz"])
def test_an_unknown_document_is_404_with_a_code(
    client: Client, auth: dict, document_id: object
) -> None:
    response = client.get(f"/api/documents/{document_id}", headers=auth)
    assert response.status_code == 404
    assert response.json()["code"] == "DOCUMENT_UNKNOWN"
