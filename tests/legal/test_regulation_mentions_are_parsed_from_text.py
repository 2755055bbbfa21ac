"""Regulation mentions in titles, body text and queries: jenis, nomor, tahun, region, span."""

from __future__ import annotations

import pytest

from ingestion.legal.citation import RegulationRef, find_regulations, title_after

PP = "Peraturan Pemerintah"
UU = "Undang-Undang"

CASES: list[tuple[str, RegulationRef, str]] = [
    # text, the reference, its short citation
    ("Peraturan Pemerintah Nomor 34 Tahun 2021", RegulationRef(PP, "34", "2021"), "PP 34/2021"),
    (
        "PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 37 TAHUN 2021",
        RegulationRef(PP, "37", "2021"),
        "PP 37/2021",
    ),
    (
        "Undang-Undang Nomor 11 Tahun 2008 tentang ITE",
        RegulationRef(UU, "11", "2008"),
        "UU 11/2008",
    ),
    ("UU No. 13 Tahun 2003", RegulationRef(UU, "13", "2003"), "UU 13/2003"),
    ("pp 35 tahun 2021", RegulationRef(PP, "35", "2021"), "PP 35/2021"),
    ("PP 35/2021", RegulationRef(PP, "35", "2021"), "PP 35/2021"),
    ("uu 13 2003", RegulationRef(UU, "13", "2003"), "UU 13/2003"),
    ("Undang-Undang Nomor: 6 Tahun 2023", RegulationRef(UU, "6", "2023"), "UU 6/2023"),
    (
        "Peraturan Pemerintah Pengganti Undang-Undang Nomor 1 Tahun 2020",
        RegulationRef("Peraturan Pemerintah Pengganti Undang-Undang", "1", "2020"),
        "Perppu 1/2020",
    ),
    (
        "Perppu No. 2 Tahun 2022",
        RegulationRef("Peraturan Pemerintah Pengganti Undang-Undang", "2", "2022"),
        "Perppu 2/2022",
    ),
    (
        "Peraturan Presiden Nomor 60 Tahun 2019",
        RegulationRef("Peraturan Presiden", "60", "2019"),
        "Perpres 60/2019",
    ),
    ("Perpres 60/2019", RegulationRef("Peraturan Presiden", "60", "2019"), "Perpres 60/2019"),
    (
        "Keputusan Presiden Nomor 12 Tahun 2020",
        RegulationRef("Keputusan Presiden", "12", "2020"),
        "Keppres 12/2020",
    ),
    (
        "Peraturan Menteri Ketenagakerjaan Nomor 5 Tahun 2021",
        RegulationRef("Peraturan Menteri", "5", "2021", "Ketenagakerjaan"),
        "Permenaker 5/2021",
    ),
    (
        "Permenaker No. 5 Tahun 2021",
        RegulationRef("Peraturan Menteri", "5", "2021", "Ketenagakerjaan"),
        "Permenaker 5/2021",
    ),
    (
        "Peraturan Menteri Kelautan dan Perikanan Nomor 18 Tahun 2021",
        RegulationRef("Peraturan Menteri", "18", "2021", "Kelautan dan Perikanan"),
        "Permen Kelautan dan Perikanan 18/2021",
    ),
    (
        "Qanun Aceh Nomor 7 Tahun 2019",
        RegulationRef("Qanun", "7", "2019", "Aceh"),
        "Qanun Aceh 7/2019",
    ),
    (
        "Qanun Kabupaten Aceh Besar Nomor 3 Tahun 2020",
        RegulationRef("Qanun", "3", "2020", "Aceh Besar"),
        "Qanun Aceh Besar 3/2020",
    ),
    (
        "Peraturan Gubernur Bali Nomor 3 Tahun 2021",
        RegulationRef("Peraturan Gubernur", "3", "2021", "Bali"),
        "Pergub Bali 3/2021",
    ),
    (
        "PERATURAN GUBERNUR BALI NOMOR 1 TAHUN 2021",
        RegulationRef("Peraturan Gubernur", "1", "2021", "Bali"),
        "Pergub Bali 1/2021",
    ),
    (
        "Peraturan Bupati Pinrang Nomor 1 Tahun 2019",
        RegulationRef("Peraturan Bupati", "1", "2019", "Pinrang"),
        "Perbup Pinrang 1/2019",
    ),
    (
        "Peraturan Daerah Kabupaten Banjarnegara Nomor 8 Tahun 2023",
        RegulationRef("Peraturan Daerah", "8", "2023", "Banjarnegara"),
        "Perda Banjarnegara 8/2023",
    ),
    (
        "perda banjarnegara 8 2023",
        RegulationRef("Peraturan Daerah", "8", "2023", "Banjarnegara"),
        "Perda Banjarnegara 8/2023",
    ),
    (
        "Peraturan Daerah Kota Bandung Nomor 4 Tahun 2020",
        RegulationRef("Peraturan Daerah", "4", "2020", "Kota Bandung"),
        "Perda Kota Bandung 4/2020",
    ),
    (
        "Peraturan Daerah Nomor 8 Tahun 2023",
        RegulationRef("Peraturan Daerah", "8", "2023"),
        "Perda 8/2023",
    ),
    (
        "Peraturan Wali Kota Banda Aceh Nomor 2 Tahun 2018",
        RegulationRef("Peraturan Wali Kota", "2", "2018", "Banda Aceh"),
        "Perwal Banda Aceh 2/2018",
    ),
    (
        "Perwal Banda Aceh 3/2020",
        RegulationRef("Peraturan Wali Kota", "3", "2020", "Banda Aceh"),
        "Perwal Banda Aceh 3/2020",
    ),
    (
        "Kepbup Aceh Besar Nomor: 12 Tahun 2020",
        RegulationRef("Keputusan Bupati", "12", "2020", "Aceh Besar"),
        "Kepbup Aceh Besar 12/2020",
    ),
    (
        "Kepgub Aceh No. 400/2021",
        RegulationRef("Keputusan Gubernur", "400", "2021", "Aceh"),
        "Kepgub Aceh 400/2021",
    ),
    (
        "Peraturan Badan Pengawas Tenaga Nuklir Nomor 7 Tahun 2019",
        RegulationRef("Peraturan Badan", "7", "2019", "Pengawas Tenaga Nuklir"),
        "Perba Pengawas Tenaga Nuklir 7/2019",
    ),
    ("Undang-Undang Nomor 5", RegulationRef(UU, "5", None), "UU 5"),
]


@pytest.mark.parametrize(("text", "ref", "short"), CASES, ids=[c[0] for c in CASES])
def test_a_mention_is_parsed_into_its_parts_and_short_citation(
    text: str, ref: RegulationRef, short: str
) -> None:
    mentions = find_regulations(text)
    assert [m[0] for m in mentions] == [ref]
    assert mentions[0][0].short == short


NOT_MENTIONS = [
    "Undang-Undang ini mulai berlaku pada tanggal diundangkan.",
    "Undang-Undang Dasar Negara Republik Indonesia Tahun 1945",
    "Lembaran Negara Republik Indonesia Tahun 2003 Nomor 39",
    "pasal 59 uu ketenagakerjaan",
    "Peraturan Daerah tentang Pajak Daerah",
    "PP 35",  # a bare number without nomor keyword or year is too weak
]


@pytest.mark.parametrize("text", NOT_MENTIONS)
def test_text_that_only_names_a_jenis_is_not_a_mention(text: str) -> None:
    assert find_regulations(text) == []


def test_mentions_come_in_order_with_spans_and_a_longer_name_does_not_hide_a_shorter_one() -> None:
    text = (
        "Peraturan Pemerintah sebagai pelaksanaan Undang-Undang Nomor 11 Tahun 2020 tentang "
        "Cipta Kerja; Peraturan Bupati sebagaimana dimaksud dalam Peraturan Daerah Nomor 3 "
        "Tahun 2019 dan Pasal 5 ayat (2) PP 35/2021."
    )
    mentions = find_regulations(text)
    assert [ref.short for ref, _ in mentions] == ["UU 11/2020", "Perda 3/2019", "PP 35/2021"]
    assert [text[s:e] for _, (s, e) in mentions] == [
        "Undang-Undang Nomor 11 Tahun 2020",
        "Peraturan Daerah Nomor 3 Tahun 2019",
        "PP 35/2021",
    ]


def test_the_title_after_a_mention_is_its_tentang_clause() -> None:
    text = (
        "Undang-Undang Nomor 11 Tahun 2008 tentang Informasi dan Transaksi Elektronik "
        "(Lembaran Negara Republik Indonesia Tahun 2008 Nomor 58)"
    )
    ((_, (_, end)),) = find_regulations(text)
    assert title_after(text, end) == "Informasi dan Transaksi Elektronik"
    assert title_after("UU 13/2003 Pasal 59", len("UU 13/2003")) is None
