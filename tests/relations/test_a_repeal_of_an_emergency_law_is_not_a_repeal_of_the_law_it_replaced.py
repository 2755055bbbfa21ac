"""``Undang-undang Darurat No. 13 tahun 1955 tentang pencabutan dan penggantian Undang-undang
No. 14 tahun 1953 … dinyatakan tidak berlaku lagi`` (UU 24/1959) repeals the emergency law.
The UU named in its title was already repealed by it; read as the head, it would be repealed
a second time, and a UU Drt and a UU of the same number are two regulations."""

from __future__ import annotations

from collections.abc import Callable

from ingestion.legal.citation import RegulationRef
from ingestion.legal.relations import SectionText, extract_relations
from tests.relations.helpers import Regulation

Chunked = Callable[[str], list[SectionText]]


def repeals(closing: str, chunked: Chunked) -> set[str]:
    regulation = Regulation(closing=(closing, "Undang-Undang ini mulai berlaku."))
    own = RegulationRef("Undang-Undang", "24", "1959", None)
    found = extract_relations("judul", chunked(regulation.text()), own)
    return {r.citation for r in found if r.kind == "repeals"}


def test_the_emergency_law_is_repealed_not_the_law_in_its_title(chunked: Chunked) -> None:
    closing = (
        "Peraturan-peraturan yang termaktub dalam Undang-undang Darurat No. 13 tahun 1955"
        " tentang pencabutan dan penggantian Undang-undang No. 14 tahun 1953 (Lembaran-Negara"
        " tahun 1953 No. 40) dinyatakan tidak berlaku lagi."
    )
    assert repeals(closing, chunked) == {"UU Drt 13/1955"}
