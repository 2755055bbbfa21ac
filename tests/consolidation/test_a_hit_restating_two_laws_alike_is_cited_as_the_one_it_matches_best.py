"""An omnibus restates "Pasal 1" of two laws in nearly the same words (two laws' lists of
definitions share most of their formulas). A hit is cited as the law whose restated
wording holds its words best, not the first one above the threshold; a tie cites neither,
and a hit with no words matches nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from ingestion.models import PasalVersionState
from ingestion.search.consolidated import _Index, _Version
from ingestion.search.query import SearchHit

SHARED = "Dalam Undang-Undang ini yang dimaksud dengan Menteri adalah menteri yang menyelenggarakan"
ROADS = f"{SHARED} urusan pemerintahan di bidang jalan dan jembatan."
WORK = f"{SHARED} urusan pemerintahan di bidang ketenagakerjaan dan pelatihan kerja."


def _version(target: str, text: str) -> _Version:
    return _Version(
        target_id=target,
        target_citation=f"UU {target}",
        amending_id="omnibus",
        amending_citation="UU 11/2020",
        number="1",
        state=PasalVersionState.AMENDED,
        valid_from=date(2020, 11, 2),
        valid_to=None,
        source="Pasal 80",
        text=text,
    )


def _index(*texts: tuple[str, str]) -> _Index:
    found = [([_version(target, text)], 0) for target, text in texts]
    return _Index(date(2026, 1, 1), {}, {("omnibus", "1"): found})


def _hit(text: str) -> SearchHit:
    return SearchHit(
        chunk_id=1, document_id="omnibus", title="UU 11/2020", heading_path="", page_from=1,
        page_to=1, text=text, score=1.0, source_url="", source_type="JDIH", source_key="k",
        source_version="1", unit={"pasal": "1"}, unit_text=text, unit_label="Pasal 1",
    )  # fmt: skip


def test_the_wording_holding_the_hits_words_best_is_chosen_over_the_first() -> None:
    index = _index(("38/2004", ROADS), ("13/2003", WORK))
    chosen = index.restated_by(_hit(WORK), "1")
    assert chosen is not None
    assert chosen[0][0].target_id == "13/2003"


def test_two_wordings_that_hold_the_hit_equally_cite_neither() -> None:
    index = _index(("38/2004", WORK), ("13/2003", WORK))
    assert index.restated_by(_hit(WORK), "1") is None


def test_a_hit_with_no_words_matches_no_wording() -> None:
    index = _index(("38/2004", ROADS), ("13/2003", WORK))
    assert index.restated_by(_hit("— ; —"), "1") is None


def test_a_pasal_deleted_by_the_only_law_it_could_restate_is_taken_by_its_state() -> None:
    deleted = replace(_version("38/2004", "Dihapus."), state=PasalVersionState.DELETED)
    index = _Index(date(2026, 1, 1), {}, {("omnibus", "1"): [([deleted], 0)]})
    chosen = index.restated_by(_hit("Pasal 1\nDihapus."), "1")
    assert chosen is not None and chosen[0][0].target_id == "38/2004"
