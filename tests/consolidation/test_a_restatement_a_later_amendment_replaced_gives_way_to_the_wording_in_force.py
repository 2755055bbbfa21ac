"""A Pasal restated twice (UU 20/2001, then a made-up UU 5/2003): a query that matches the
first restatement, which the second replaced, is answered with the second — the wording in
force — at its place, as the original's replaced Pasal is; not left out."""

from __future__ import annotations

import pytest

from tests.consolidation.helpers import search_fresh

pytestmark = pytest.mark.django_db

# Words of UU 20/2001's Pasal 5 only: the 2003 wording says it otherwise.
WORDING_OF_2001 = (
    "memberi atau menjanjikan sesuatu kepada pegawai negeri atau penyelenggara negara dengan"
    " maksud supaya pegawai negeri atau penyelenggara negara tersebut berbuat atau tidak berbuat"
)


def test_the_replaced_restatement_gives_way_to_the_restatement_in_force(
    tipikor_restated_twice: tuple[str, str, str],
) -> None:
    _original, first, second = tipikor_restated_twice
    hits = search_fresh(WORDING_OF_2001)
    assert hits[0].document_id == second, [h.citation for h in hits]
    assert hits[0].consolidated is True
    assert hits[0].citation is not None and hits[0].citation.startswith("UU 31/1999 Pasal 5")
    assert [c["citation"] for c in hits[0].changed_by] == ["UU 20/2001", "UU 5/2003"]
    replaced = [h for h in hits if h.document_id == first and h.unit and h.unit["pasal"] == "5"]
    assert replaced == []


def test_with_history_the_replaced_restatement_follows_marked_not_in_force(
    tipikor_restated_twice: tuple[str, str, str],
) -> None:
    _original, first, second = tipikor_restated_twice
    hits = search_fresh(WORDING_OF_2001, include_history=True)
    assert hits[0].document_id == second and hits[0].in_force is not False
    old = [h for h in hits if h.document_id == first and h.unit and h.unit["pasal"] == "5"]
    assert old and all(h.in_force is False and h.consolidated for h in old)
    assert hits.index(old[0]) > 0
