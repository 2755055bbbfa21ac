"""Admin uploads: stored, queued, deduplicated, and described to a person."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from ingestion.jobs import (
    UploadMeta,
    claim_next_upload_job,
    enqueue_upload,
    queue_info,
    run_upload_job,
)
from ingestion.models import IngestionJob, JobOrigin, JobState
from ingestion.storage import get_storage
from tests.pipeline_core.helpers import LEGAL_TEXT, upload_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("store_dir")]


@pytest.fixture
def admin() -> object:
    return get_user_model().objects.create_user("operator", password="rahasia-panjang-123")


def _finished_job(seconds: int) -> None:
    end = timezone.now() - timedelta(hours=1)
    IngestionJob.objects.create(
        origin=JobOrigin.UPLOAD,
        state=JobState.DONE,
        started_at=end - timedelta(seconds=seconds),
        finished_at=end,
    )


def test_the_third_of_three_queued_uploads_shows_its_position_and_measured_eta(
    admin: object,
) -> None:
    for seconds in (100, 120, 500):  # median 120 s per job
        _finished_job(seconds)
    jobs = [
        enqueue_upload(
            upload_file(f"qanun-{i}.txt", f"{LEGAL_TEXT}\n{i}".encode()),
            meta=UploadMeta(),
            user=admin,
        ).job
        for i in range(3)
    ]
    assert all(job is not None for job in jobs)
    info = queue_info(jobs[2])  # type: ignore[arg-type]
    assert info.position == 3
    assert info.eta_seconds == 360
    assert info.text == "Dalam antrean — posisi 3 (±6 menit)"
    assert queue_info(jobs[0]).text == "Dalam antrean — posisi 1 (±2 menit)"  # type: ignore[arg-type]


def test_an_upload_is_stored_in_object_storage_with_the_documented_identity(
    admin: object,
) -> None:
    outcome = enqueue_upload(
        upload_file("Perda 12 2026.txt", LEGAL_TEXT.encode()),
        meta=UploadMeta(source_metadata={"tahun": "2026"}),
        user=admin,
    )
    job = outcome.job
    assert job is not None and not outcome.duplicate
    payload = job.payload
    assert re.fullmatch(
        r"uploads/[0-9a-f]{2}/[0-9a-f]{64}/Perda 12 2026\.txt", payload["storage_key"]
    )
    assert get_storage().exists(payload["storage_key"])
    assert payload["source_key"] == f"upload:{payload['checksum']}"
    assert (payload["source_type"], payload["source_version"]) == ("upload", "1")
    assert payload["title"] == "Perda 12 2026"
    assert job.lock_key == f"doc-uploaded:upload:{payload['checksum']}"
    assert job.created_by == admin


def test_the_same_bytes_and_version_again_return_the_existing_document(
    admin: object,
) -> None:
    first = enqueue_upload(
        upload_file("qanun.txt", LEGAL_TEXT.encode()), meta=UploadMeta(), user=admin
    )
    waiting = enqueue_upload(
        upload_file("salinan.txt", LEGAL_TEXT.encode()), meta=UploadMeta(), user=admin
    )
    assert waiting.duplicate and waiting.job == first.job
    job = claim_next_upload_job()
    assert job is not None and job.pk == first.job.pk  # type: ignore[union-attr]
    result = run_upload_job(job)
    again = enqueue_upload(
        upload_file("lagi.txt", LEGAL_TEXT.encode()), meta=UploadMeta(), user=admin
    )
    assert again.duplicate and again.job is None
    assert again.document is not None and again.document.pk == result.document_id
    assert IngestionJob.objects.filter(origin=JobOrigin.UPLOAD).count() == 1


def test_an_unsupported_file_type_is_refused_with_a_reason(
    admin: object,
) -> None:
    outcome = enqueue_upload(upload_file("data.exe", b"MZ"), meta=UploadMeta(), user=admin)
    assert outcome.job is None
    assert outcome.error == "Format berkas tidak didukung: .exe"


def test_a_very_long_file_name_keeps_its_extension_and_format(admin: object) -> None:
    long_name = "peraturan-" + "sangat-panjang-" * 40 + ".txt"
    outcome = enqueue_upload(
        upload_file(long_name, LEGAL_TEXT.encode()), meta=UploadMeta(), user=admin
    )
    assert outcome.error is None
    assert outcome.job is not None
    name = outcome.job.payload["file_name"]
    assert len(name) <= 200
    assert name.endswith(".txt")
    assert outcome.job.payload["format"] == "txt"
