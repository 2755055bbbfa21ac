"""An original regulation, even one numbering its articles I, II …, yields no amendment."""

from __future__ import annotations

from pathlib import Path

from ingestion.legal.amendments.read import read_amendments
from ingestion.legal.citation import RegulationRef
from tests.amendments.conftest import UU_11_2008, BuildOriginal

ROMAN_ARTICLES = """PERATURAN PEMERINTAH NOMOR 29 TAHUN 1970 TENTANG SENSUS PENDUDUK 1971
MEMUTUSKAN:
Menetapkan : PERATURAN PEMERINTAH TENTANG PELAKSANAAN SENSUS PENDUDUK.
Pasal I
Sensus penduduk dilaksanakan dalam tahun 1971 di seluruh wilayah Indonesia.
Pasal II
Peraturan Pemerintah ini mulai berlaku pada hari diundangkan.
"""


def test_an_original_yields_nothing(build_original: BuildOriginal) -> None:
    assert read_amendments(build_original([("1", "Satu."), ("2", "Dua.")]), UU_11_2008) == []
    own = RegulationRef("Peraturan Pemerintah", "29", "1970")
    assert read_amendments(ROMAN_ARTICLES, own) == []


def test_the_corpus_originals_yield_nothing(corpus_amendments: Path) -> None:
    for name in ("uu_6_1983_kup.md", "uu_31_1999_tipikor.md", "uu_23_2014_pemerintahan_daerah.md"):
        _, nomor, tahun, *_ = name.split("_")
        own = RegulationRef("Undang-Undang", nomor, tahun)
        assert read_amendments((corpus_amendments / name).read_text(), own) == [], name
