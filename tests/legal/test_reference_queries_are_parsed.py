"""The reference parser's table: which unit and regulation a query names, and what is left."""

from __future__ import annotations

import pytest

from ingestion.legal.citation import RegulationRef
from ingestion.legal.references import (
    QueryReference,
    RegulationName,
    UnitRef,
    parse_query_reference,
)

PP = "Peraturan Pemerintah"
UU = "Undang-Undang"

TABLE: list[tuple[str, QueryReference]] = [
    (
        "Pasal 5 ayat (2) PP 35/2021",
        QueryReference(UnitRef("5", "2"), RegulationRef(PP, "35", "2021")),
    ),
    (
        "pp 35 tahun 2021 pasal 5 ayat 2",
        QueryReference(UnitRef("5", "2"), RegulationRef(PP, "35", "2021")),
    ),
    (
        "UU No. 13 Tahun 2003 Pasal 59",
        QueryReference(UnitRef("59"), RegulationRef(UU, "13", "2003")),
    ),
    (
        "pasal 59 uu ketenagakerjaan",
        QueryReference(UnitRef("59"), name=RegulationName(UU, "ketenagakerjaan")),
    ),
    (
        "Qanun Aceh Nomor 7 Tahun 2019",
        QueryReference(regulation=RegulationRef("Qanun", "7", "2019", "Aceh")),
    ),
    (
        "Pasal 21 ayat (4) huruf g PP 34/2021",
        QueryReference(UnitRef("21", "4", "g"), RegulationRef(PP, "34", "2021")),
    ),
    (
        "pasal 1 angka 3 Peraturan Pemerintah Nomor: 34 Tahun 2021",
        QueryReference(UnitRef("1", angka="3"), RegulationRef(PP, "34", "2021")),
    ),
    (
        "Pasal 21A UU 11/2020",
        QueryReference(UnitRef("21A"), RegulationRef(UU, "11", "2020")),
    ),
    (
        "uu cipta kerja pasal 81",
        QueryReference(UnitRef("81"), name=RegulationName(UU, "cipta kerja")),
    ),
    (
        "Perda Banjarnegara 8/2023 tentang pajak",
        QueryReference(
            regulation=RegulationRef("Peraturan Daerah", "8", "2023", "Banjarnegara"),
            rest="tentang pajak",
        ),
    ),
    (
        "berapa lama kontrak kerja menurut uu ketenagakerjaan",
        QueryReference(
            name=RegulationName(UU, "ketenagakerjaan"), rest="berapa lama kontrak kerja menurut"
        ),
    ),
    (
        "syarat PKWT dalam pasal 59 ayat (1)",
        QueryReference(UnitRef("59", "1"), rest="syarat PKWT dalam"),
    ),
    (
        "Laporan realisasi apa yang diperlukan?",
        QueryReference(rest="Laporan realisasi apa yang diperlukan?"),
    ),
    # a jenis alone names nothing: "menurut Peraturan Pemerintah ini"
    (
        "kewajiban menurut Peraturan Pemerintah ini",
        QueryReference(rest="kewajiban menurut Peraturan Pemerintah ini"),
    ),
]


@pytest.mark.parametrize(("query", "expected"), TABLE, ids=[row[0] for row in TABLE])
def test_a_query_names_its_unit_and_regulation(query: str, expected: QueryReference) -> None:
    assert parse_query_reference(query) == expected


def test_a_unit_label_reads_like_a_citation() -> None:
    assert UnitRef("21", "4", "g").label == "Pasal 21 ayat (4) huruf g"
    assert UnitRef("1", angka="3").label == "Pasal 1 angka 3"
