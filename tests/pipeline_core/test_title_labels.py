"""Title labels let people find a regulation however they write its name."""

from __future__ import annotations

from ingestion.legal.citation import parse_regulation
from ingestion.legal.identity import title_labels


def test_metadata_yields_long_and_short_citations() -> None:
    labels = title_labels(
        "Pajak Daerah",
        {"jenis": "Peraturan Daerah", "nomor": "12", "tahun": "2026", "bentuk_singkat": "Perda"},
    ).splitlines()
    assert "Peraturan Daerah Nomor 12 Tahun 2026" in labels
    assert "Perda No. 12/2026" in labels
    assert "Perda Nomor 12 Tahun 2026" in labels


def test_a_qanun_title_without_metadata_is_parsed_into_its_short_form() -> None:
    labels = title_labels("Qanun Aceh Nomor 3 Tahun 2026", {}).splitlines()
    assert "Qanun Aceh No. 3/2026" in labels
    assert "Qanun Aceh Nomor 3 Tahun 2026" not in labels  # the title itself is not repeated


def test_a_terse_citation_is_expanded_to_the_full_name() -> None:
    assert parse_regulation("UU 13 2003") == parse_regulation("Undang-Undang Nomor 13 Tahun 2003")
    labels = title_labels("UU 13 2003", {}).splitlines()
    assert "Undang-Undang Nomor 13 Tahun 2003" in labels


def test_a_storage_file_name_is_read_as_a_citation() -> None:
    citation = parse_regulation("perda-no-12-2026.pdf")
    assert citation is not None
    assert (citation.jenis, citation.nomor, citation.tahun) == ("Peraturan Daerah", "12", "2026")


def test_governor_and_mayor_regulations_get_their_abbreviations() -> None:
    pergub = title_labels("Peraturan Gubernur Aceh Nomor 5 Tahun 2024", {}).splitlines()
    assert "Pergub No. 5/2024" in pergub
    perwal = title_labels("Peraturan Walikota Banda Aceh No. 7/2021", {}).splitlines()
    assert "Perwal Nomor 7 Tahun 2021" in perwal
    assert "Peraturan Wali Kota Banda Aceh Nomor 7 Tahun 2021" in perwal


def test_a_circular_keeps_its_short_name() -> None:
    labels = title_labels("Surat Edaran Gubernur Aceh Nomor 3 Tahun 2020", {})
    assert "SE No. 3/2020" in labels.splitlines()


def test_a_title_without_a_citation_gets_no_invented_numbers() -> None:
    labels = title_labels("Laporan Keuangan Dinas", {"wilayah": "Aceh Besar"})
    assert labels == "Aceh Besar"
