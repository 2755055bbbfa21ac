"""Which regulation a document is: sourceMetadata part by part, then its own printed
heading, then its title (often a file name); a partial reading is filled only from
readings that agree with it."""

from __future__ import annotations

from ingestion.legal.identity import document_citation, document_identity, title_labels

HEADING = "PERATURAN DAERAH KABUPATEN PINRANG\nNOMOR 3 TAHUN 2017\nTENTANG RETRIBUSI\nMenimbang :"


def test_the_printed_heading_wins_over_a_file_name() -> None:
    assert document_citation("uu_13_2003_salinan.pdf", {}, HEADING) == "Perda Pinrang 3/2017"


def test_source_metadata_wins_over_the_heading_part_by_part() -> None:
    ref = document_identity("arsip.pdf", {"nomor": "4"}, HEADING)
    assert ref is not None and ref.short == "Perda Pinrang 4/2017"


def test_a_partial_heading_is_completed_by_a_title_that_agrees() -> None:
    opening = "PERATURAN DAERAH\nNOMOR 3\nTENTANG RETRIBUSI\nMenimbang :"
    ref = document_identity("perda_pinrang_3_2017.pdf", {}, opening)
    assert ref is not None and ref.short == "Perda Pinrang 3/2017"
    other = document_identity("perda_pinrang_5_2017.pdf", {}, opening)
    assert other is not None and other.short == "Perda Pinrang 5/2017"  # complete wins


def test_without_a_heading_the_title_is_read() -> None:
    assert document_citation("Qanun Aceh Nomor 7 Tahun 2019", {}) == "Qanun Aceh 7/2019"
    assert document_citation("arsip.txt", {}, "Laporan kegiatan bulan Mei") == ""


def test_the_title_labels_come_from_the_same_identity() -> None:
    labels = title_labels("arsip.txt", {}, HEADING).splitlines()
    assert "Perda Pinrang No. 3/2017" in labels
    assert "Peraturan Daerah Nomor 3 Tahun 2017" in labels
