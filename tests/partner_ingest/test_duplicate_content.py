"""Same source, same bytes, new jobId: fetched, then indexed/skipped with the old document."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from ingestion.models import Document
from tests.partner_ingest.helpers import LEGAL_TEXT, doc_uploaded, ingest_event, put_object

pytestmark = pytest.mark.django_db(transaction=True)


def test_unchanged_bytes_under_the_same_source_key_are_skipped(store_dir: Path) -> None:
    key = put_object(store_dir, "jdih/qanun-3.txt", LEGAL_TEXT.encode())
    source = {"sourceKey": f"jdih-{uuid.uuid4()}"}
    first = ingest_event(doc_uploaded(key, **source, sourceVersion="v1"))
    assert first.code == 0, first.stderr

    second = ingest_event(doc_uploaded(key, **source, sourceVersion="v2"))

    assert second.code == 0, second.stderr
    assert second.wire == [
        ("fetched", "extracting", "done", 10, False),
        ("skipped", "indexed", "skipped", 100, True),
    ]
    assert second.values[-1]["aiDocumentId"] == first.values[-1]["aiDocumentId"]
    assert second.values[-1]["meta"] == {"chunkCount": 0}
    assert Document.objects.count() == 1
