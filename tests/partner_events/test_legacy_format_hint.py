"""The legacy format hint, when non-null, must agree with mimeType and the extension."""

from __future__ import annotations

import pytest

from tests.partner_events.helpers import MISSING, accepted, event, rejected


@pytest.mark.parametrize("value", [MISSING, None, "pdf"])
def test_an_absent_or_agreeing_format_is_accepted(value: object) -> None:
    record = accepted(event(format=value)).normalized
    assert record is not None
    assert record.format == "pdf"


@pytest.mark.parametrize(
    ("key", "fmt"),
    [
        ("documents/a.pdf", "docx"),
        ("documents/a.pdf", "image"),
        ("documents/a", "docx"),
    ],
)
def test_a_format_disagreeing_with_mime_or_extension_is_rejected(key: str, fmt: str) -> None:
    assert "format" in (rejected(event(storageKey=key, format=fmt)).error or "")


@pytest.mark.parametrize("value", ["PDF", "doc", "jpeg", "", " ", 1])
def test_an_unknown_or_blank_format_is_rejected(value: object) -> None:
    assert "format" in (rejected(event(format=value)).error or "")
