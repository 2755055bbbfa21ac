"""An import that fails half-way (a document whose original no longer goes through the
pipeline) leaves the database and the store as they were before it."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from ingestion import storage as storage_module
from ingestion.models import ApiToken, Document, IngestionJob
from tests.export.small import export, small_document


def test_a_document_that_fails_again_undoes_the_whole_import(
    store_dir: Path, tmp_path: Path, settings: Any, db: None
) -> None:
    small_document(store_dir, "baik", "isi dokumen yang baik")
    broken = small_document(store_dir, "rusak", "bukan pdf")
    Document.objects.filter(pk=broken).update(format="pdf", mime_type="application/pdf")
    User.objects.create_user("operator")
    target = tmp_path / "ekspor"
    export(target)  # without derived data: the import re-runs the pipeline

    Document.objects.all().delete()
    IngestionJob.objects.all().delete()
    ApiToken.objects.all().delete()
    User.objects.all().delete()
    fresh = tmp_path / "penyimpanan-baru"
    fresh.mkdir()
    settings.OBJECT_STORAGE_URL = fresh.as_uri()
    storage_module._cached.cache_clear()

    with pytest.raises(CommandError, match=f"Dokumen {broken} gagal diproses ulang"):
        call_command("import_corpus_export", str(target), "--no-progress", stdout=StringIO())

    assert not Document.objects.exists()
    assert not User.objects.exists()
    assert [p for p in fresh.rglob("*") if p.is_file()] == []  # not half-filled
