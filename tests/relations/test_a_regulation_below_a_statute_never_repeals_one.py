"""A regulation changes only regulations of its rank or below. A PP saying that a UU "was
repealed" narrates another law's act (PP 26/1955's Penjelasan on UU 14/1953, read as a
repeal at 4,336 PP); the PP it repeals in the same sentence is still its own repeal."""

from __future__ import annotations

from collections.abc import Callable

from ingestion.legal.citation import RegulationRef
from ingestion.legal.relations import SectionText, extract_relations
from tests.relations.helpers import Regulation

Chunked = Callable[[str], list[SectionText]]
CLOSING = (
    "Undang-undang No. 14 tahun 1953 dan Peraturan Pemerintah No. 6 tahun 1954 dicabut dan"
    " dinyatakan tidak berlaku lagi."
)


def repeals(own: RegulationRef, chunked: Chunked) -> set[str]:
    regulation = Regulation(closing=(CLOSING, "Peraturan ini mulai berlaku."))
    found = extract_relations("judul", chunked(regulation.text()), own)
    return {r.citation for r in found if r.kind == "repeals"}


def test_a_pp_repeals_the_pp_and_not_the_uu(chunked: Chunked) -> None:
    own = RegulationRef("Peraturan Pemerintah", "26", "1955", None)
    assert repeals(own, chunked) == {"PP 6/1954"}


def test_a_uu_repeals_both(chunked: Chunked) -> None:
    own = RegulationRef("Undang-Undang", "7", "1956", None)
    assert repeals(own, chunked) == {"UU 14/1953", "PP 6/1954"}
