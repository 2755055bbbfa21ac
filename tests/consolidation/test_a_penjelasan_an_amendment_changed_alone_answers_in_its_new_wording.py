"""UU 20/2001 keeps Pasal 2 ayat (2) of UU 31/1999 and changes only its Penjelasan
("substansi tetap, penjelasan pasal diubah"): the old explanation of ayat (2) is not
current law, the new one is cited as the amended regulation's, and the explanation of
ayat (1), which no instruction touches, stays as it was."""

from __future__ import annotations

import pytest

from ingestion.search.query import SearchHit
from tests.consolidation.helpers import search_fresh

pytestmark = pytest.mark.django_db

OLD_AYAT_2 = (
    "dimaksudkan sebagai pemberatan bagi pelaku tindak pidana korupsi apabila tindak pidana"
    " tersebut dilakukan pada waktu negara dalam keadaan bahaya"
)
UNTOUCHED_AYAT_1 = "mencakup perbuatan melawan hukum dalam arti formil maupun dalam arti materiil"


def _old_explanation_of_pasal_2(hits: list[SearchHit], original: str) -> list[SearchHit]:
    return [
        h
        for h in hits
        if h.document_id == original
        and (h.unit_label or "") in {"Penjelasan Pasal 2", "Penjelasan Pasal 2 ayat (2)"}
    ]


def test_the_new_explanation_answers_cited_as_the_amended_regulations(
    tipikor: tuple[str, str],
) -> None:
    original, amending = tipikor
    hits = search_fresh(OLD_AYAT_2)
    assert _old_explanation_of_pasal_2(hits, original) == []
    top = hits[0]
    assert top.document_id == amending, [h.citation for h in hits]
    assert top.citation is not None and top.citation.startswith("UU 31/1999 Penjelasan Pasal 2")
    assert top.consolidated is True
    assert [c["citation"] for c in top.changed_by] == ["UU 20/2001"]


def test_with_history_the_old_explanation_is_kept_marked_not_in_force(
    tipikor: tuple[str, str],
) -> None:
    original, _amending = tipikor
    old = _old_explanation_of_pasal_2(search_fresh(OLD_AYAT_2, include_history=True), original)
    assert old and all(h.in_force is False for h in old)


def test_the_untouched_explanation_of_ayat_1_stays_current(tipikor: tuple[str, str]) -> None:
    original, _amending = tipikor
    hits = search_fresh(UNTOUCHED_AYAT_1)
    kept = [h for h in hits if h.unit_label == "Penjelasan Pasal 2 ayat (1)"]
    assert kept and kept[0].document_id == original, [h.citation for h in hits]
    assert kept[0].in_force is not False and not kept[0].consolidated
