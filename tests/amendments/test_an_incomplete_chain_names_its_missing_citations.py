"""An amendment naming an earlier one not supplied leaves the chain incomplete."""

from __future__ import annotations

from pathlib import Path

from ingestion.legal.amendments.apply import consolidate
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments
from ingestion.legal.citation import RegulationRef
from tests.amendments.conftest import UU_19_2016, BuildAmending, BuildOriginal


def test_the_missing_amendment_is_named_and_the_rest_applied(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    original = pasal_texts(build_original([("1", "Satu."), ("2", "Dua.")]))
    text = build_amending(
        ["Pasal 2 dihapus."], earlier="Undang-Undang Nomor 11 Tahun 2020 tentang Cipta Kerja"
    )
    result = consolidate(original, None, read_amendments(text, UU_19_2016), [UU_19_2016])
    assert not result.chain_complete
    assert [r.short for r in result.missing] == ["UU 11/2020"]
    assert len(result.applied) == 1


def test_the_jalan_chain_lacks_cipta_kerja(corpus_amendments: Path) -> None:
    original = pasal_texts((corpus_amendments / "uu_38_2004_jalan.md").read_text())
    own = RegulationRef("Undang-Undang", "2", "2022")
    amending = (corpus_amendments / "uu_2_2022_perubahan_kedua_jalan.md").read_text()
    result = consolidate(original, None, read_amendments(amending, own), [own])
    assert [r.short for r in result.missing] == ["UU 11/2020"]
    assert not result.chain_complete
    assert len(result.applied) > 40
