"""A scanned heading is read through the letters OCR confuses (I/l/1, O/0, U/V, M as
"IVI" or "iv l", H as "II"), stray dots inside words, numbers misread as letters and words
run together; "Menimbang" read as "ivlenimbang" still ends the heading."""

from __future__ import annotations

import pytest

from ingestion.legal.identity import document_identity, heading_of, read_heading

HEADINGS = [
    ("UNDANG.UNDANG REPUBLIK INDONESI.A\nNOMOR I1 TAHVN 2OO8\nTENTANG\nINFORMASI", "UU 11/2008"),
    ("UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 2TAHVN 2022 TENTANG JALAN", "UU 2/2022"),
    ("PERATURAN PEMERlNTAH REPUBLIK INDONESIA\nNOMOR 3S TAHUN 2O21\nTENTANG", "PP 35/2021"),
    ("PERATURAN PRES1DEN REPUBL1K INDONES1A\nNOIVIOR 60 TAIIUN 2019\nTENTANG", "Perpres 60/2019"),
    ("SALINAN\nQANUN ACEH\nNOMOR l TAHUN 2O19\nTENTANG", "Qanun Aceh 1/2019"),
    ("PERATURAN BUPATI PINRANG\nN0MOR 7 TAHLIN 2020\nTENTANG", "Perbup Pinrang 7/2020"),
    ("Undang- Undang Republik Indonesia Nomor 13 Tahun 2OO3 tentang Ketenagakerjaan", "UU 13/2003"),
    ("PERATURAN WALIKOTA BANDA ACEH\nNOMOR 12 TAHUN 2021\nTENTANG", "Perwal Banda Aceh 12/2021"),
    ("SALIN AN\nPERA TURAN PEMERINTAH REPUBLIK I NDONESIA\nNOMOR 55 TAHUN 2016", "PP 55/2016"),
    ("UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 10 . TAHUN 2009 ...... TENTANG", "UU 10/2009"),
    ("UNDANG-UNDANG REPUBLIK INDONESIA NOMOR.19 TAHUN 2008 TENTANG SURAT", "UU 19/2008"),
    ("PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 39 TAHUN 2022' TENTANG", "PP 39/2022"),
    ("PERATURAN PEIVIERINTAH REPUBLIK INDONESIA I{OMOR 65 TAHUN 2019 TENTANG", "PP 65/2019"),
    (
        "PERATURAN PEMERINTAH NOMOR 36 TAHUN 1948 PERATURAN PEMERINTAH NOMOR 36 TAHUN 1948 X",
        "PP 36/1948",
    ),
]


@pytest.mark.parametrize(("heading", "citation"), HEADINGS)
def test_a_noisy_heading_names_its_regulation(heading: str, citation: str) -> None:
    ref = document_identity("arsip.txt", {}, heading + "\nDENGAN RAHMAT TUHAN YANG MAHA ESA")
    assert ref is not None and ref.short == citation


@pytest.mark.parametrize("preamble", ["Menimbang :", "ivlenimbang :", "IVIENIMBANG", "rnenimbang"])
def test_a_misread_menimbang_still_ends_the_heading(preamble: str) -> None:
    heading = heading_of(
        f"PERATURAN DAERAH\nNOMOR 5 TAHUN 2024\nTENTANG PASAR\n{preamble} a. bahwa"
    )
    assert heading.ended
    assert heading.text.endswith("TENTANG PASAR")


def test_preamble_labels_printed_before_the_heading_are_skipped() -> None:
    opening = "Menimbang Menimbang Mengingat : I Menetapkan PERATURAN PEMERINTAH REPUBLIK"
    opening += " INDONESIA NOMOR 31 TAHUN 2O2L TENTANG PELAYARAN DENGAN RAHMAT TUHAN YANG MAHA ESA"
    ref = document_identity("arsip.txt", {}, opening)
    assert ref is not None and ref.short == "PP 31/2021"


def test_running_text_is_left_as_it_was() -> None:
    text = "Kami mendengar 10 orang tua di Kota Lama pada tahun lalu."
    assert read_heading(text) == text
