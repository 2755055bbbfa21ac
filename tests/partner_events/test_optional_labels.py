"""sourceSystem, skpaUnit, classification, category: absent/null or a non-blank string."""

from __future__ import annotations

import pytest

from tests.partner_events.helpers import MISSING, accepted, event, rejected

LABELS = {
    "sourceSystem": "source_system",
    "skpaUnit": "skpa_unit",
    "classification": "classification",
    "category": "category",
}


@pytest.mark.parametrize("name", LABELS)
@pytest.mark.parametrize("value", [MISSING, None])
def test_an_absent_label_is_null_and_not_stored(name: str, value: object) -> None:
    record = accepted(event(**{name: value})).normalized
    assert record is not None
    assert getattr(record, LABELS[name]) is None
    assert record.to_json()[name] is None
    assert name not in record.source_fields()


@pytest.mark.parametrize("name", LABELS)
def test_a_label_is_kept_and_stored_as_source_metadata(name: str) -> None:
    record = accepted(event(**{name: "ppid-crawler"})).normalized
    assert record is not None
    assert getattr(record, LABELS[name]) == "ppid-crawler"
    assert record.source_fields()[name] == "ppid-crawler"


@pytest.mark.parametrize("name", LABELS)
@pytest.mark.parametrize("value", ["", "  ", 3, True, ["x"], {"a": "b"}])
def test_a_blank_or_non_string_label_is_rejected(name: str, value: object) -> None:
    assert name in (rejected(event(**{name: value})).error or "")
