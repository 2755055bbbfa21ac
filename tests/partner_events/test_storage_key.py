"""storageKey: a non-empty key naming an object, used without modification."""

from __future__ import annotations

import pytest

from tests.partner_events.helpers import accepted, event, rejected


@pytest.mark.parametrize(
    "key",
    [
        "documents/a1b2/perda.pdf",
        "/leading/slash.pdf",
        "spasi di nama/Perda Nomor 5.pdf",
        "plain.pdf",
        "UPPER/CASE.PDF",
    ],
)
def test_the_storage_key_is_used_unmodified(key: str) -> None:
    record = accepted(event(storageKey=key)).normalized
    assert record is not None
    assert record.storage_key == key


@pytest.mark.parametrize("key", ["", "   ", "documents/", "documents/  "])
def test_a_key_that_names_no_object_is_rejected(key: str) -> None:
    assert "storageKey" in (rejected(event(storageKey=key)).error or "")


def test_a_key_with_a_nul_byte_is_rejected() -> None:
    assert "storageKey" in (rejected(event(storageKey="a/b\x00.pdf")).error or "")


def test_a_key_longer_than_object_storage_allows_is_rejected() -> None:
    assert accepted(event(storageKey="k/" + "a" * 1018 + ".pdf")).normalized is not None
    error = rejected(event(storageKey="k/" + "é" * 510 + ".pdf")).error or ""
    assert "storageKey" in error
    assert "1024" in error
