"""The contract's own example events are accepted with the documented meaning."""

from __future__ import annotations

from tests.partner_events.helpers import (
    DOCUMENT_ID,
    FULL_EXAMPLE,
    JOB_ID,
    REQUIRED_EXAMPLE,
    accepted,
)


def test_the_required_example_is_valid_and_keeps_the_storage_key_unmodified() -> None:
    record = accepted(REQUIRED_EXAMPLE).normalized
    assert record is not None
    assert record.storage_key == "documents/a1b2c3d4e5f6/perda-no-12-2026.pdf"
    assert record.source_type == "JDIH"
    assert record.format == "pdf"
    assert record.parser_file_name == "perda-no-12-2026.pdf"


def test_the_required_example_stores_document_id_and_uploaded_at_as_provenance() -> None:
    record = accepted(REQUIRED_EXAMPLE).normalized
    assert record is not None
    assert record.source_key == DOCUMENT_ID
    assert record.source_version == "2026-08-05T09:12:03.412Z"
    assert record.registry_id == DOCUMENT_ID
    assert record.lock_key == f"doc-uploaded:{DOCUMENT_ID}"
    assert not record.source_key_explicit
    assert not record.source_version_explicit


def test_the_full_example_treats_an_extensionless_key_as_a_pdf_for_the_parser() -> None:
    record = accepted(FULL_EXAMPLE).normalized
    assert record is not None
    assert record.storage_key == "jdih/2026/qanun-aceh-001"
    assert record.parser_file_name == "qanun-aceh-001.pdf"
    assert record.title == "qanun-aceh-001"
    assert not record.title_from_partner


def test_the_full_example_keeps_its_optional_labels_and_source_version() -> None:
    verdict = accepted(FULL_EXAMPLE)
    record = verdict.normalized
    assert record is not None
    assert (record.source_system, record.skpa_unit) == ("jdih-portal", "dinas-keuangan")
    assert (record.classification, record.category) == ("public", "qanun")
    assert record.source_version == "2026-07-23T10:15:30Z"
    assert record.source_version_explicit
    assert verdict.job_id == JOB_ID
    assert verdict.warnings == []
