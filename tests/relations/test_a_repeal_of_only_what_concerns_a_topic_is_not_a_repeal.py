"""``UU X, khususnya yang berkaitan dengan …, dicabut`` repeals only a part of UU X (seen in
UU 31/2004 on UU 5/1983): a whole repeal would hide a law still in force."""

from __future__ import annotations

from collections.abc import Callable

from ingestion.legal.citation import RegulationRef
from ingestion.legal.relations import SectionText, extract_relations
from tests.relations.helpers import Regulation

Chunked = Callable[[str], list[SectionText]]
ZEE = (
    "Undang-Undang Nomor 5 Tahun 1983 tentang Zona Ekonomi Eksklusif Indonesia (Lembaran"
    " Negara Republik Indonesia Tahun 1983 Nomor 44)"
)


def repeals(closing: str, chunked: Chunked) -> set[str]:
    regulation = Regulation(closing=(closing, "Undang-Undang ini mulai berlaku."))
    own = RegulationRef("Undang-Undang", "31", "2004", None)  # as seen: UU 31/2004
    found = extract_relations("judul", chunked(regulation.text()), own)
    return {r.citation for r in found if r.kind == "repeals"}


def test_khususnya_makes_the_repeal_partial(chunked: Chunked) -> None:
    closing = (
        f"Pada saat Undang-Undang ini mulai berlaku, {ZEE} khususnya yang berkaitan dengan"
        " tindak pidana di bidang perikanan, dicabut dan dinyatakan tidak berlaku."
    )
    assert repeals(closing, chunked) == set()


def test_the_same_clause_without_khususnya_is_a_repeal(chunked: Chunked) -> None:
    closing = (
        f"Pada saat Undang-Undang ini mulai berlaku, {ZEE} dicabut dan dinyatakan tidak berlaku."
    )
    assert repeals(closing, chunked) == {"UU 5/1983"}
