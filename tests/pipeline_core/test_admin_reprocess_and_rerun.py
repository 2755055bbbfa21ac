"""An admin can reprocess a document in place and re-run a failed upload job."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from ingestion.jobs import UploadMeta, enqueue_reprocess, enqueue_upload, requeue_job
from ingestion.models import Chunk, Document, DocumentStatus, IngestionJob, JobState
from ingestion.storage import get_storage
from tests.pipeline_core.helpers import LEGAL_TEXT, upload_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("store_dir")]


def _indexed_upload() -> Document:
    outcome = enqueue_upload(
        upload_file("qanun-7.txt", LEGAL_TEXT.encode()),
        meta=UploadMeta(title="Qanun Aceh Nomor 7 Tahun 2026"),
        user=None,
    )
    assert outcome.job is not None
    call_command("ingest_worker", "--once")
    outcome.job.refresh_from_db()
    assert outcome.job.document is not None
    return outcome.job.document


def test_reprocessing_unchanged_bytes_rebuilds_the_same_document_instead_of_skipping() -> None:
    document = _indexed_upload()
    old_chunk_ids = set(Chunk.objects.filter(document=document).values_list("pk", flat=True))

    job = enqueue_reprocess(document, user=None)
    call_command("ingest_worker", "--once")

    job.refresh_from_db()
    document.refresh_from_db()
    assert job.state == JobState.DONE, job.error
    assert job.document_id == document.pk
    assert document.status == DocumentStatus.INDEXED
    assert Document.objects.count() == 1
    new_chunk_ids = set(Chunk.objects.filter(document=document).values_list("pk", flat=True))
    assert new_chunk_ids and not (new_chunk_ids & old_chunk_ids)


def test_a_failed_upload_job_runs_again_after_a_rerun(settings: Any) -> None:
    outcome = enqueue_upload(
        upload_file("qanun-8.txt", LEGAL_TEXT.encode() + b"\nPasal 9\n\nTambahan."),
        meta=UploadMeta(),
        user=None,
    )
    assert outcome.job is not None
    stored_key = outcome.job.payload["storage_key"]
    data = get_storage().open(stored_key).read()
    get_storage().delete(stored_key)
    settings.KAFKA_MAX_RETRIES = 0
    call_command("ingest_worker", "--once")
    job = IngestionJob.objects.get(pk=outcome.job.pk)
    assert job.state == JobState.FAILED
    assert "tidak ditemukan" in job.error

    get_storage().put(stored_key, io.BytesIO(data))
    assert requeue_job(job, user=None) is True
    call_command("ingest_worker", "--once")

    job.refresh_from_db()
    assert job.state == JobState.DONE, job.error


def test_only_a_failed_job_can_be_requeued() -> None:
    document = _indexed_upload()
    job = IngestionJob.objects.get(document=document)
    assert requeue_job(job, user=None) is False
    job.refresh_from_db()
    assert job.state == JobState.DONE
