"""Which copy answers for a regulation when search pinned units (no database: the choice
alone, over chunk owners as ``one_copy_per_regulation`` reads them)."""

from __future__ import annotations

from ingestion.search.copies import _pinned_copies

REG = ("perda-banjarnegara-3-2010", "")
OWNERS = {
    1: ("best", *REG),
    2: ("other", *REG),
    3: ("older-edition", *REG),
    4: ("third", *REG),
    5: ("alone", "uu-1-2020", ""),
}
BEST = {REG: "best"}
CURRENT = {"best", "other", "third", "alone"}


def test_the_best_copy_answers_when_it_holds_a_pinned_unit() -> None:
    fused = [(2, 3.0), (1, 2.0)]
    assert _pinned_copies(fused, OWNERS, {1, 2}, BEST, CURRENT) == {}


def test_the_highest_pinned_current_copy_answers_when_the_best_holds_none() -> None:
    fused = [(4, 3.0), (2, 2.0), (1, 1.0)]
    assert _pinned_copies(fused, OWNERS, {2, 4}, BEST, CURRENT) == {REG: "third"}


def test_an_older_edition_never_answers() -> None:
    fused = [(3, 3.0), (2, 2.0)]
    assert _pinned_copies(fused, OWNERS, {3, 2}, BEST, CURRENT) == {REG: "other"}
    assert _pinned_copies(fused, OWNERS, {3}, BEST, CURRENT) == {}


def test_pins_outside_the_list_or_of_a_regulation_without_copies_change_nothing() -> None:
    fused = [(5, 3.0), (1, 2.0)]
    assert _pinned_copies(fused, OWNERS, {5, 2, 99}, BEST, CURRENT) == {}
