"""sourceKey and sourceVersion are read tolerantly and replace documentId / uploadedAt."""

from __future__ import annotations

import pytest

from tests.partner_events.helpers import DOCUMENT_ID, MISSING, accepted, event

UNAVAILABLE = [MISSING, None, "", "   ", "-", " - ", 12, True, ["k"], {"k": "v"}]


def test_a_source_key_replaces_the_document_id_for_provenance_and_lock() -> None:
    record = accepted(event(sourceKey=" jdih-3f2a ")).normalized
    assert record is not None
    assert record.source_key == "jdih-3f2a"
    assert record.source_key_explicit
    assert record.lock_key == "doc-uploaded:jdih-3f2a"
    assert record.to_json()["sourceKey"] == "jdih-3f2a"


@pytest.mark.parametrize("value", UNAVAILABLE)
def test_an_unavailable_source_key_falls_back_to_the_document_id(value: object) -> None:
    record = accepted(event(sourceKey=value)).normalized
    assert record is not None
    assert record.source_key == DOCUMENT_ID
    assert not record.source_key_explicit
    assert record.lock_key == f"doc-uploaded:{DOCUMENT_ID}"


def test_a_source_version_replaces_uploaded_at() -> None:
    record = accepted(event(sourceVersion="edisi-2")).normalized
    assert record is not None
    assert record.source_version == "edisi-2"
    assert record.source_version_explicit


@pytest.mark.parametrize("value", UNAVAILABLE)
def test_an_unavailable_source_version_falls_back_to_uploaded_at(value: object) -> None:
    record = accepted(event(sourceVersion=value)).normalized
    assert record is not None
    assert record.source_version == "2026-08-05T09:12:03.412Z"
    assert not record.source_version_explicit
