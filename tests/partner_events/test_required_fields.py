"""Each required field must be present and well-formed; the error names the field."""

from __future__ import annotations

import pytest

from tests.partner_events.helpers import MISSING, event, rejected

REQUIRED = [
    "jobId",
    "documentId",
    "storageKey",
    "mimeType",
    "collectionId",
    "collectionName",
    "uploadedBy",
    "uploadedAt",
]
UUID_FIELDS = ["jobId", "documentId", "collectionId", "uploadedBy"]


@pytest.mark.parametrize("name", REQUIRED)
def test_a_missing_required_field_is_rejected_by_name(name: str) -> None:
    assert name in (rejected(event(**{name: MISSING})).error or "")


@pytest.mark.parametrize("name", REQUIRED)
def test_a_null_required_field_is_rejected_by_name(name: str) -> None:
    assert name in (rejected(event(**{name: None})).error or "")


@pytest.mark.parametrize("name", UUID_FIELDS)
@pytest.mark.parametrize(
    "value",
    [
        "not-a-uuid",
        "",
        "550e8400e29b41d4a716446655440000",
        "{550e8400-e29b-41d4-a716-446655440000}",
        " 550e8400-e29b-41d4-a716-446655440000",
        "550e8400-e29b-41d4-a716-44665544000g",
        12345,
        ["550e8400-e29b-41d4-a716-446655440000"],
    ],
)
def test_uuid_fields_accept_only_canonical_uuid_strings(name: str, value: object) -> None:
    verdict = rejected(event(**{name: value}))
    assert f"{name} harus UUID" in (verdict.error or "")


@pytest.mark.parametrize("name", UUID_FIELDS)
def test_uuid_fields_accept_upper_case_and_report_them_as_sent(name: str) -> None:
    from tests.partner_events.helpers import accepted

    upper = "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"
    record = accepted(event(**{name: upper})).normalized
    assert record is not None
    assert record.to_json()[name] == upper


@pytest.mark.parametrize("name", ["storageKey", "mimeType", "collectionName"])
@pytest.mark.parametrize("value", ["", "   ", 7, {"a": "b"}])
def test_required_strings_must_be_non_blank_strings(name: str, value: object) -> None:
    assert name in (rejected(event(**{name: value})).error or "")


def test_every_field_error_is_reported_in_one_message() -> None:
    error = rejected(event(documentId="x", collectionId="y", uploadedAt="z")).error or ""
    assert "documentId" in error
    assert "collectionId" in error
    assert "uploadedAt" in error
