"""Only a heading names the document: a regulation cited in a sentence, in a headline, or
as the subject of an amendment is never taken for the document itself."""

from __future__ import annotations

import pytest

from ingestion.legal.identity import document_identity

NOT_A_NAME = [
    "Berdasarkan Peraturan Bupati Malang Nomor 5 Tahun 2020 tentang Tugas, kami menugaskan",
    "SURAT TUGAS\nBERDASARKAN PERATURAN BUPATI MALANG NOMOR 5 TAHUN 2020",
    "BERITA\nPP NOMOR 5 TAHUN 2021 DITERBITKAN PEKAN INI",
    "PERATURAN DAERAH TENTANG PERUBAHAN ATAS PERATURAN DAERAH NOMOR 8 TAHUN 2023",
    "Laporan realisasi anggaran menurut Undang-Undang Nomor 17 Tahun 2003 tentang Keuangan",
    "2. Undang-Undang Nomor 13 Tahun 2003 tentang Ketenagakerjaan (Lembaran Negara …);",
]


@pytest.mark.parametrize("opening", NOT_A_NAME)
def test_a_cited_regulation_is_not_the_documents_identity(opening: str) -> None:
    assert document_identity("dokumen.pdf", {}, opening) is None


def test_a_year_after_next_is_a_misreading_not_the_regulations_year() -> None:
    opening = "PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 6 TAHUN 2078 TENTANG MODAL"
    ref = document_identity("arsip.txt", {}, opening)
    assert ref is not None and (ref.nomor, ref.tahun) == ("6", None)
