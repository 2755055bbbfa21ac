"""Rule 3: the same bytes and version under another source key.

The database keeps (checksum, version) unique, so the request is answered with the other
source's row — but that row is another source's record: none of this request's metadata
or title may land in it, and a run still processing it must not be joined.
"""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from django.db import connection

from ingestion.models import Document, DocumentStatus
from ingestion.pipeline.runner import Outcome, ingest
from tests.pipeline_core.helpers import (
    LEGAL_TEXT,
    RecordingObserver,
    doc_id,
    make_request,
    put_object,
)

pytestmark = pytest.mark.django_db


def _other_session() -> psycopg.Connection:
    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    return psycopg.connect(autocommit=True, **params)


def test_a_duplicate_under_another_key_is_skipped_without_touching_that_document(
    store_dir: Path,
) -> None:
    put_object(store_dir, "a/qanun.txt", LEGAL_TEXT.encode())
    first = ingest(
        make_request(
            "a/qanun.txt",
            source_key="jdih-a",
            source_version="v1",
            title="Qanun Asli",
            title_from_partner=True,
            source_metadata={"nomor": "3"},
        )
    )
    put_object(store_dir, "b/salinan.txt", LEGAL_TEXT.encode())
    observer = RecordingObserver()
    second = ingest(
        make_request(
            "b/salinan.txt",
            source_key="jdih-b",
            source_version="v1",
            title="Judul Lain",
            title_from_partner=True,
            source_metadata={"nomor": "99"},
        ),
        observer,
    )
    assert second.outcome is Outcome.SKIPPED
    assert second.document_id == doc_id(first)
    assert observer.keys == ["fetched", "skipped"]
    stored = Document.objects.get(pk=doc_id(first))
    assert stored.title == "Qanun Asli"
    assert stored.metadata["source_key"] == "jdih-a"
    assert stored.metadata["source"]["nomor"] == "3"


def test_a_row_with_the_same_bytes_still_processing_under_another_key_defers_the_request(
    store_dir: Path,
) -> None:
    put_object(store_dir, "a/qanun.txt", LEGAL_TEXT.encode())
    first = ingest(make_request("a/qanun.txt", source_key="jdih-a", source_version="v1"))
    # jdih-a is being re-run by another worker: its row is unfinished and its lock held.
    Document.objects.filter(pk=doc_id(first)).update(status=DocumentStatus.PROCESSING)
    put_object(store_dir, "b/salinan.txt", LEGAL_TEXT.encode())
    request = make_request("b/salinan.txt", source_key="jdih-b", source_version="v1")
    with _other_session() as other:
        other.execute("SELECT pg_advisory_lock(hashtextextended('doc-uploaded:jdih-a', 0))")
        observer = RecordingObserver()
        result = ingest(request, observer)
        other.execute("SELECT pg_advisory_unlock(hashtextextended('doc-uploaded:jdih-a', 0))")
    assert result.outcome is Outcome.DEFERRED
    assert observer.events == []
    assert Document.objects.get(pk=doc_id(first)).metadata["source_key"] == "jdih-a"
