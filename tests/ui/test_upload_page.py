"""Upload: limits shown first, clear messages for bad files, duplicates linked, jobs queued."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from ingestion import storage as storage_module
from ingestion.models import IngestionJob, JobState
from tests.ui.helpers import text_pdf


@pytest.fixture
def store(tmp_path: Path, settings: Any) -> Iterator[Path]:
    settings.OBJECT_STORAGE_URL = tmp_path.as_uri()
    storage_module._cached.cache_clear()
    yield tmp_path
    storage_module._cached.cache_clear()


def _pdf(name: str, text: str = "Qanun Aceh tentang retribusi") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text_pdf(text), content_type="application/pdf")


@pytest.mark.django_db
def test_the_limits_are_shown_before_uploading(admin_client: Client, settings: Any) -> None:
    settings.INGEST_MAX_BYTES = 5 * 1024 * 1024
    body = admin_client.get("/upload/").content.decode()
    assert "5,0\xa0MB" in body or "5.0\xa0MB" in body
    assert "pdf" in body and "docx" in body


@pytest.mark.django_db
def test_several_files_are_queued_with_their_position(admin_client: Client, store: Path) -> None:
    files = [_pdf(f"qanun-{i}.pdf", f"Qanun nomor {i}") for i in range(3)]
    response = admin_client.post(
        "/upload/", {"files": files, "source_type": "JDIH", "tahun": "2026"}
    )
    body = response.content.decode()
    assert IngestionJob.objects.filter(state=JobState.QUEUED).count() == 3
    assert "Dalam antrean — posisi 1" in body and "Dalam antrean — posisi 3" in body
    job = IngestionJob.objects.order_by("created_at").first()
    assert job is not None and job.payload["source_metadata"] == {"tahun": "2026"}


@pytest.mark.django_db
def test_an_unsupported_file_gets_a_clear_message(admin_client: Client, store: Path) -> None:
    bad = SimpleUploadedFile("surat.exe", b"MZ...", content_type="application/octet-stream")
    legacy = SimpleUploadedFile("lama.doc", b"\xd0\xcf\x11\xe0", content_type="application/msword")
    body = admin_client.post("/upload/", {"files": [bad, legacy], "source_type": "upload"}).content
    text = body.decode()
    assert "Jenis berkas tidak didukung (.exe)" in text
    assert "simpan ulang sebagai .docx" in text
    assert not IngestionJob.objects.exists()


@pytest.mark.django_db
def test_an_oversize_file_is_refused_with_the_limit(
    admin_client: Client, store: Path, settings: Any
) -> None:
    settings.INGEST_MAX_BYTES = 100
    body = admin_client.post("/upload/", {"files": [_pdf("besar.pdf")], "source_type": "upload"})
    assert "Berkas terlalu besar" in body.content.decode()
    assert not IngestionJob.objects.exists()


@pytest.mark.django_db
def test_a_waiting_duplicate_says_so(admin_client: Client, store: Path) -> None:
    data = text_pdf("Qanun yang sama")
    for name in ("a.pdf", "b.pdf"):
        upload = SimpleUploadedFile(name, data, content_type="application/pdf")
        body = admin_client.post("/upload/", {"files": [upload], "source_type": "upload"})
    assert "Duplikat" in body.content.decode()
    assert IngestionJob.objects.count() == 1


@pytest.mark.django_db
def test_htmx_uploads_get_only_the_results_fragment(admin_client: Client, store: Path) -> None:
    response = admin_client.post(
        "/upload/", {"files": [_pdf("c.pdf")], "source_type": "upload"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert "<html" not in body and "Diterima" in body
    assert 'hx-trigger="every 2s"' in body
