"""A Penjelasan explains one wording of its Pasal: once an amendment restates the Pasal,
the old explanation is not current law either. It gives way to the Penjelasan of the same
unit in the text in force (cited as the amended regulation's), or is left out; with
``include_history`` it is kept, marked not in force."""

from __future__ import annotations

import pytest

from ingestion.search.query import SearchHit
from tests.consolidation.helpers import search_fresh

pytestmark = pytest.mark.django_db

# UU 20/2001's Penjelasan of Pasal 5 ayat (2); UU 5/2003 restates Pasal 5 and explains
# ayat (2) in other words.
OLD_EXPLANATION = (
    "Pengertian penyelenggara negara tersebut berlaku pula untuk pasal-pasal berikutnya"
    " dalam Undang-undang ini"
)


def _old_explanation(hits: list[SearchHit], first: str) -> list[SearchHit]:
    return [
        h
        for h in hits
        if h.document_id == first and (h.unit_label or "").startswith("Penjelasan Pasal 5")
    ]


def test_the_old_penjelasan_gives_way_to_the_penjelasan_in_force(
    tipikor_restated_twice: tuple[str, str, str],
) -> None:
    _original, first, second = tipikor_restated_twice
    hits = search_fresh(OLD_EXPLANATION)
    assert _old_explanation(hits, first) == []
    top = hits[0]
    assert top.document_id == second, [h.citation for h in hits]
    assert top.citation is not None and top.citation.startswith("UU 31/1999 Penjelasan Pasal 5")
    assert top.consolidated is True
    assert [c["citation"] for c in top.changed_by] == ["UU 20/2001", "UU 5/2003"]


def test_with_history_the_old_penjelasan_is_kept_marked_not_in_force(
    tipikor_restated_twice: tuple[str, str, str],
) -> None:
    _original, first, _second = tipikor_restated_twice
    old = _old_explanation(search_fresh(OLD_EXPLANATION, include_history=True), first)
    assert old and all(h.in_force is False for h in old)
