"""Search quotes the wording in force: the amending law's restated Pasal is cited as the
amended regulation's unit, the replaced wording is not current law; ``as_of`` and
``include_history`` answer for another date and with the superseded wordings."""

from __future__ import annotations

from datetime import date

import pytest

from tests.consolidation.helpers import search_fresh

pytestmark = pytest.mark.django_db

BRIBERY = (
    "memberi atau menjanjikan sesuatu kepada pegawai negeri atau penyelenggara negara dengan"
    " maksud supaya pegawai negeri atau penyelenggara negara tersebut berbuat atau tidak berbuat"
)
ORIGINAL_WORDING = "Pasal 209 Kitab Undang-undang Hukum Pidana"


def test_the_restated_pasal_is_cited_as_the_amended_laws_unit(tipikor: tuple[str, str]) -> None:
    _original, amending = tipikor
    first = search_fresh(BRIBERY)[0]
    assert first.document_id == amending
    assert first.citation is not None and first.citation.startswith("UU 31/1999 Pasal 5")
    assert first.consolidated is True
    assert first.citation_full == f"{first.citation} sebagaimana telah diubah dengan UU 20/2001"
    assert [c["citation"] for c in first.changed_by] == ["UU 20/2001"]
    assert first.changed_by[0]["documentId"] == amending
    assert first.valid_from == "2001-11-21"
    body = first.to_json()
    assert body["consolidated"] is True and body["citationFull"] == first.citation_full


def test_the_replaced_wording_is_not_returned_as_current_law(tipikor: tuple[str, str]) -> None:
    original, _amending = tipikor
    for hit in search_fresh(f"tindak pidana sebagaimana dimaksud dalam {ORIGINAL_WORDING}"):
        if hit.document_id == original and hit.unit and hit.unit["pasal"] in {"5", "6", "7"}:
            pytest.fail(f"replaced wording returned as current law: {hit.citation}")


def test_a_named_replaced_pasal_is_answered_with_its_wording_in_force(
    tipikor: tuple[str, str],
) -> None:
    _original, amending = tipikor
    first = search_fresh("UU 31/1999 Pasal 5")[0]
    assert first.document_id == amending
    assert first.consolidated is True
    assert first.citation is not None and first.citation.startswith("UU 31/1999 Pasal 5")


def test_as_of_a_date_before_the_amendment_answers_with_the_original(
    tipikor: tuple[str, str],
) -> None:
    original, amending = tipikor
    hits = search_fresh(BRIBERY, as_of=date(2000, 1, 1))
    assert all(h.document_id != amending or not h.consolidated for h in hits)
    named = search_fresh("UU 31/1999 Pasal 5", as_of=date(2000, 1, 1))[0]
    assert named.document_id == original
    assert named.text.find("Pasal 209") >= 0


def test_include_history_returns_the_superseded_wording_marked_not_in_force(
    tipikor: tuple[str, str],
) -> None:
    original, amending = tipikor
    hits = search_fresh("UU 31/1999 Pasal 5", include_history=True)
    current = [h for h in hits if h.document_id == amending and h.in_force is not False]
    superseded = [h for h in hits if h.document_id == original and h.in_force is False]
    assert current and current[0].consolidated
    assert superseded and superseded[0].unit and superseded[0].unit["pasal"] == "5"
    assert hits.index(current[0]) < hits.index(superseded[0])
