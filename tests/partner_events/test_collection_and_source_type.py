"""collectionName normalizes to a source type; an explicit sourceType must match it."""

from __future__ import annotations

import pytest

from partner_events.contract.validate import ContractConfig
from tests.partner_events.helpers import accepted, event, rejected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("JDIH", "JDIH"),
        ("jdih", "JDIH"),
        ("Open Data", "OpenData"),
        ("OPENDATA", "OpenData"),
        ("open-data", "OpenData"),
        ("ppid", "PPID"),
        ("Satu Data", "SatuData"),
        ("satudata", "SatuData"),
        ("Upload", "upload"),
        ("Provinsi Aceh", "JDIH"),
        ("Kabupaten Aceh Besar", "JDIH"),
        ("kota banda aceh", "JDIH"),
    ],
)
def test_collection_names_normalize_ignoring_case_and_spaces(name: str, expected: str) -> None:
    record = accepted(event(collectionName=name)).normalized
    assert record is not None
    assert record.source_type == expected
    assert record.collection_name == name


@pytest.mark.parametrize("name", ["Arsip Nasional", "Provinsi", "Kotamobagu", "JDIH-X"])
def test_an_unknown_collection_is_malformed(name: str) -> None:
    assert "collectionName" in (rejected(event(collectionName=name)).error or "")


def test_an_explicit_jdih_source_type_is_accepted_for_a_regional_collection() -> None:
    record = accepted(event(collectionName="Provinsi Aceh", sourceType="JDIH")).normalized
    assert record is not None
    assert record.source_type == "JDIH"


@pytest.mark.parametrize(("name", "source_type"), [("JDIH", "PPID"), ("Provinsi Aceh", "upload")])
def test_a_conflicting_source_type_is_malformed(name: str, source_type: str) -> None:
    error = rejected(event(collectionName=name, sourceType=source_type)).error or ""
    assert "sourceType" in error


@pytest.mark.parametrize("value", ["jdih", "Legal", "", 5])
def test_an_unknown_source_type_value_is_rejected(value: object) -> None:
    assert "sourceType" in (rejected(event(sourceType=value)).error or "")


def test_an_explicit_source_type_cannot_rescue_an_unknown_collection() -> None:
    assert "collectionName" in (
        rejected(event(collectionName="Arsip", sourceType="JDIH")).error or ""
    )


def test_configured_aliases_extend_the_mapping() -> None:
    aliases = {"jdih": "JDIH", "Portal Hukum": "JDIH", "ppid": "PPID"}
    config = ContractConfig(collection_aliases=aliases)
    record = accepted(event(collectionName="portal  hukum"), config).normalized
    assert record is not None
    assert record.source_type == "JDIH"
    assert "collectionName" in (rejected(event(collectionName="upload"), config).error or "")
