"""Short citations from loose parts (sourceMetadata) and document titles; nothing guessed."""

from __future__ import annotations

import pytest

from ingestion.legal.citation import parse_regulation, short_citation
from ingestion.legal.identity import document_identity

PARTS: list[tuple[tuple[object, object, object, str | None], str | None]] = [
    (("Undang-Undang", "13", "2003", None), "UU 13/2003"),
    (("UU", 13, 2003, None), "UU 13/2003"),
    (("Peraturan Pemerintah Pengganti Undang-Undang", "2", "2022", None), "Perppu 2/2022"),
    (("Undang-Undang Darurat", "7", "1955", None), "UU Drt 7/1955"),
    (("Undang-undang Darurat", "12", "1951", None), "UU Drt 12/1951"),
    (("Peraturan Pemerintah", "34", "2021", None), "PP 34/2021"),
    (("Peraturan Presiden", "60", "2019", None), "Perpres 60/2019"),
    (("Peraturan Menteri", "5", "2021", "Ketenagakerjaan"), "Permenaker 5/2021"),
    (("Peraturan Daerah", "8", "2023", "Kabupaten Banjarnegara"), "Perda Banjarnegara 8/2023"),
    (("Peraturan Daerah Kabupaten Banjarnegara", "8", "2023", None), "Perda Banjarnegara 8/2023"),
    (("Perda", "08", "2023", "BANJARNEGARA"), "Perda Banjarnegara 8/2023"),
    (("Qanun Aceh", "7", "2019", None), "Qanun Aceh 7/2019"),
    (("Qanun", "7", "2019", "Aceh"), "Qanun Aceh 7/2019"),
    (("Peraturan Gubernur", "3", "2021", "Bali"), "Pergub Bali 3/2021"),
    (("Pergub", "3", "2021", "Provinsi Bali"), "Pergub Bali 3/2021"),
    (("Peraturan Bupati", "1", "2019", "Pinrang"), "Perbup Pinrang 1/2019"),
    (("Peraturan Wali Kota", "2", "2018", "Kota Banda Aceh"), "Perwal Kota Banda Aceh 2/2018"),
    (("Keputusan Bupati", "12", "2020", "Aceh Besar"), "Kepbup Aceh Besar 12/2020"),
    (("Keputusan Gubernur", "400", "2021", "Aceh"), "Kepgub Aceh 400/2021"),
    # unknown parts are omitted
    (("Peraturan Pemerintah", "34", None, None), "PP 34"),
    (("Peraturan Pemerintah", None, "2021", None), "PP Tahun 2021"),
    (("Peraturan Gubernur", "3", "2021", None), "Pergub 3/2021"),
    # a national jenis never carries a region
    (("Undang-Undang", "13", "2003", "Aceh"), "UU 13/2003"),
    # a jenis outside the table is kept as written, not mapped to a guess
    (("Peraturan Kepala Desa", "1", "2020", None), "Peraturan Kepala Desa 1/2020"),
    # too little to cite
    ((None, "1", "2020", None), None),
    (("Peraturan Pemerintah", None, None, None), None),
    (("-", "-", "-", None), None),
]


@pytest.mark.parametrize(("parts", "short"), PARTS, ids=[str(p[0]) for p in PARTS])
def test_short_citation_from_parts(
    parts: tuple[str | None, object, object, str | None], short: str | None
) -> None:
    jenis, nomor, tahun, region = parts
    assert short_citation(jenis, nomor, tahun, region) == short  # type: ignore[arg-type]


TITLES = [
    ("Peraturan Gubernur Bali Nomor 1 Tahun 2021 tentang Kelas Jabatan", "Pergub Bali 1/2021"),
    ("pp_37_2021_jkp", "PP 37/2021"),
    ("Salinan Peraturan Pemerintah Nomor 37 Tahun 2021", "PP 37/2021"),
    ("Perda Kabupaten Banjarnegara 8 Tahun 2025 (abstrak)", "Perda Banjarnegara 8/2025"),
    ("Undang-Undang tentang Ketenagakerjaan", None),
    ("Laporan Realisasi Keuangan 2023", None),
]


@pytest.mark.parametrize(("title", "short"), TITLES)
def test_a_title_names_its_regulation(title: str, short: str | None) -> None:
    ref = parse_regulation(title)
    assert (ref.short if ref else None) == short


def test_source_metadata_wins_part_by_part_over_the_title() -> None:
    title = "Peraturan Pemerintah Nomor 35 Tahun 2021 tentang PKWT"
    assert document_identity(title, {}).short == "PP 35/2021"  # type: ignore[union-attr]
    meta = {"jenis": "Peraturan Pemerintah", "nomor": "36", "tahun": "2021"}
    assert document_identity(title, meta).short == "PP 36/2021"  # type: ignore[union-attr]
    only_year = {"tahun": "2022"}
    assert document_identity(title, only_year).short == "PP 35/2022"  # type: ignore[union-attr]
    qanun = {"jenis": "Qanun", "nomor": "7", "tahun": "2019", "wilayah": "Aceh"}
    assert document_identity("Pengelolaan Hutan", qanun).short == "Qanun Aceh 7/2019"  # type: ignore[union-attr]
    assert document_identity("Laporan Keuangan", {}) is None
