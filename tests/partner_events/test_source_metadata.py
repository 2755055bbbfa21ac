"""sourceMetadata keeps only the descriptive keys; other keys are dropped with one warning."""

from __future__ import annotations

import pytest

from partner_events.contract.validate import SOURCE_METADATA_KEYS
from tests.partner_events.helpers import MISSING, accepted, event


def test_every_descriptive_key_is_kept_with_its_trimmed_string_value() -> None:
    metadata = {key: f" nilai {key} " for key in SOURCE_METADATA_KEYS}
    record = accepted(event(sourceMetadata=metadata)).normalized
    assert record is not None
    assert record.source_metadata == {key: f"nilai {key}" for key in SOURCE_METADATA_KEYS}


def test_the_contract_lists_fifteen_descriptive_keys() -> None:
    assert len(SOURCE_METADATA_KEYS) == 15
    assert {"judul", "tahun", "pdf_url", "catalogue_source", "year"} <= set(SOURCE_METADATA_KEYS)


def test_other_keys_are_dropped_with_one_warning_naming_keys_not_values() -> None:
    metadata = {"tahun": "2026", "workspace": "rahasia-1", "access": {"x": 1}, "Tahun": "9"}
    verdict = accepted(event(sourceMetadata=metadata))
    assert verdict.normalized is not None
    assert verdict.normalized.source_metadata == {"tahun": "2026"}
    assert verdict.warnings == [
        {"code": "source_metadata_keys_dropped", "keys": ["workspace", "access", "Tahun"]}
    ]
    assert "rahasia-1" not in repr(verdict.warnings)


@pytest.mark.parametrize("value", [None, "", "  ", "-", 2026, 1.5, False, ["a"], {"a": "b"}])
def test_unavailable_values_of_kept_keys_are_left_out(value: object) -> None:
    verdict = accepted(event(sourceMetadata={"tahun": value, "nomor": "12"}))
    assert verdict.normalized is not None
    assert verdict.normalized.source_metadata == {"nomor": "12"}
    assert verdict.warnings == []


@pytest.mark.parametrize("value", [MISSING, None, "tahun=2026", 7, ["tahun"], True])
def test_a_non_object_source_metadata_is_ignored(value: object) -> None:
    verdict = accepted(event(sourceMetadata=value))
    assert verdict.normalized is not None
    assert verdict.normalized.source_metadata == {}
    assert verdict.normalized.to_json()["sourceMetadata"] == {}
    assert verdict.warnings == []


def test_metadata_cannot_override_transport_fields_in_stored_source_fields() -> None:
    payload = event(sourceMetadata={"judul": "Qanun"}, sourceSystem="jdih-portal")
    record = accepted(payload).normalized
    assert record is not None
    fields = record.source_fields()
    assert fields["judul"] == "Qanun"
    assert fields["sourceSystem"] == "jdih-portal"
    assert fields["collectionId"] == record.collection_id
