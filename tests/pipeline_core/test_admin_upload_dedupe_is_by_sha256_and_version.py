"""Admin uploads without a source key keep the contract's SHA-256 + version dedupe.

The same bytes at the same version are a duplicate; uploaded as a new version they are a
new edition, at the upload form and in the pipeline alike.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from ingestion.jobs import UploadMeta, claim_next_upload_job, enqueue_upload, run_upload_job
from ingestion.models import Document
from ingestion.pipeline.runner import Outcome
from tests.pipeline_core.helpers import LEGAL_TEXT, upload_file

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("store_dir")]


def _upload_and_run(user: object, version: str) -> Outcome | None:
    outcome = enqueue_upload(
        upload_file("qanun.txt", LEGAL_TEXT.encode()),
        meta=UploadMeta(source_version=version),
        user=user,
    )
    if outcome.duplicate:
        return None
    job = claim_next_upload_job()
    assert job is not None
    return run_upload_job(job).outcome


def test_the_same_bytes_uploaded_as_a_new_version_become_a_new_edition() -> None:
    admin = get_user_model().objects.create_user("operator", password="rahasia-panjang-123")
    assert _upload_and_run(admin, "1") is Outcome.INDEXED
    assert _upload_and_run(admin, "1") is None  # same bytes, same version: duplicate
    assert _upload_and_run(admin, "2") is Outcome.INDEXED
    versions = sorted(d.source_version for d in Document.objects.all())
    assert versions == ["1", "2"]
