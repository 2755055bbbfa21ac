"""The contract's identity rules against real Postgres: skip, new edition, in-place fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ingestion.models import Chunk, Document, DocumentStatus
from ingestion.pipeline.runner import IngestResult, Outcome, ingest
from tests.pipeline_core.helpers import (
    LEGAL_TEXT,
    RecordingObserver,
    doc_id,
    make_request,
    put_object,
)

pytestmark = pytest.mark.django_db

SOURCE_KEY = "jdih-7f1c2f5e-portal"


def _ingest_text(
    root: Path, key: str, text: str, **kwargs: Any
) -> tuple[IngestResult, RecordingObserver]:
    put_object(root, key, text.encode())
    observer = RecordingObserver()
    result = ingest(make_request(key, source_key=SOURCE_KEY, **kwargs), observer)
    return result, observer


def test_unchanged_bytes_at_a_new_version_are_skipped_with_the_existing_document(
    store_dir: Path,
) -> None:
    first, _ = _ingest_text(
        store_dir, "a/qanun.txt", LEGAL_TEXT, source_version="v1", source_metadata={"tahun": "2026"}
    )
    chunks_before = list(
        Chunk.objects.filter(document_id=doc_id(first)).values_list("id", flat=True)
    )
    second, observer = _ingest_text(
        store_dir,
        "b/qanun.txt",
        LEGAL_TEXT,
        source_version="v2",
        title="Qanun Aceh Nomor 3 Tahun 2026",
        title_from_partner=True,
        source_metadata={"nomor": "3", "jenis": "Qanun Aceh"},
    )
    assert second.outcome is Outcome.SKIPPED
    assert second.document_id == first.document_id
    assert observer.keys == ["fetched", "skipped"]
    assert observer.events[-1][2] == {"chunkCount": 0}
    doc = Document.objects.get(pk=doc_id(first))
    assert Document.objects.filter(metadata__source_key=SOURCE_KEY).count() == 1
    assert doc.source == {**doc.source, "tahun": "2026", "nomor": "3", "jenis": "Qanun Aceh"}
    assert doc.source_version == "v1"  # identity unchanged
    assert doc.title == "Qanun Aceh Nomor 3 Tahun 2026"
    assert "Qanun Aceh No. 3/2026" in doc.title_labels
    assert (
        list(Chunk.objects.filter(document_id=doc.pk).values_list("id", flat=True)) == chunks_before
    )


def test_a_refresh_without_a_partner_title_keeps_the_stored_title(
    store_dir: Path,
) -> None:
    first, _ = _ingest_text(
        store_dir,
        "a/qanun.txt",
        LEGAL_TEXT,
        source_version="v1",
        title="Judul Mitra",
        title_from_partner=True,
    )
    second, _ = _ingest_text(store_dir, "a/qanun.txt", LEGAL_TEXT, source_version="v2")
    assert second.outcome is Outcome.SKIPPED
    assert Document.objects.get(pk=doc_id(first)).title == "Judul Mitra"


def test_changed_bytes_at_a_new_version_become_a_new_edition_and_the_old_one_stays(
    store_dir: Path,
) -> None:
    first, _ = _ingest_text(store_dir, "a/qanun.txt", LEGAL_TEXT, source_version="v1")
    second, observer = _ingest_text(
        store_dir,
        "a/qanun.txt",
        LEGAL_TEXT + "\nPasal 3\n\nQanun ini mulai berlaku.\n",
        source_version="v2",
    )
    assert second.outcome is Outcome.INDEXED
    assert second.document_id != first.document_id
    editions = Document.objects.filter(source_type="JDIH", metadata__source_key=SOURCE_KEY)
    assert sorted(d.source_version for d in editions) == ["v1", "v2"]
    assert all(d.status == DocumentStatus.INDEXED for d in editions)
    assert Chunk.objects.filter(document_id=doc_id(first)).exists()
    assert observer.keys[-1] == "indexed"


def test_changed_bytes_at_the_same_version_are_corrected_in_place(
    store_dir: Path,
) -> None:
    first, _ = _ingest_text(store_dir, "a/qanun.txt", LEGAL_TEXT, source_version="v1")
    fixed = LEGAL_TEXT.replace("Retribusi pelayanan", "Tarif layanan")
    second, _ = _ingest_text(store_dir, "a/qanun.txt", fixed, source_version="v1")
    assert second.outcome is Outcome.INDEXED
    assert second.document_id == first.document_id
    assert Document.objects.filter(metadata__source_key=SOURCE_KEY).count() == 1
    texts = " ".join(Chunk.objects.filter(document_id=doc_id(first)).values_list("text", flat=True))
    assert "Tarif layanan" in texts
    assert "Retribusi pelayanan" not in texts
    doc = Document.objects.get(pk=doc_id(first))
    assert doc.checksum == second.checksum


def test_the_same_key_under_another_source_type_is_a_different_document(
    store_dir: Path,
) -> None:
    first, _ = _ingest_text(store_dir, "a/qanun.txt", LEGAL_TEXT, source_version="v1")
    second, _ = _ingest_text(
        store_dir,
        "a/qanun.txt",
        LEGAL_TEXT + "\nLampiran\n",
        source_version="v1",
        source_type="PPID",
    )
    assert second.outcome is Outcome.INDEXED
    assert second.document_id != first.document_id
