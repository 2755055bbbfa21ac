"""A title names its own regulation before "tentang"; what follows is its subject, which
may name the regulation it amends ("… NOMOR 2 TAHUN 2022 TENTANG PERUBAHAN ATAS …
NOMOR 2 TAHUN 2018 …" is 2/2022)."""

from __future__ import annotations

from ingestion.legal.identity import document_identity


def test_the_amending_regulation_is_the_one_named_before_tentang() -> None:
    # As the PDF's heading prints it: the seal's caption stands between the name and number.
    title = (
        "PERATURAN BADAN PENGAWAS TENAGA NUKLIR KEPALA BADAN PENGAWAS TENAGA NUKLIR "
        "NOMOR 2 TAHUN 2022 TENTANG PERUBAHAN ATAS "
        "PERATURAN BADAN PENGAWAS TENAGA NUKLIR NOMOR 2 TAHUN 2018 TENTANG UJI KESESUAIAN"
    )
    ref = document_identity(title, {})
    assert ref is not None and (ref.nomor, ref.tahun) == ("2", "2022")


def test_a_title_naming_no_number_before_tentang_is_read_whole() -> None:
    ref = document_identity("Perubahan atas Perda 3/2010 tentang Retribusi Pasar", {})
    assert ref is not None and (ref.nomor, ref.tahun) == ("3", "2010")
