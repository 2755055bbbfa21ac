"""Generated regulations: every amendment/repeal form is read, the look-alikes are not.

The look-alikes are what makes a repeal wrong: a regulation cited in *Menimbang* or
*Mengingat*, one named after "sebagaimana telah diubah dengan", one inside another's
title, a repeal of only some articles, a verb that reports someone else's repeal.
"""

from __future__ import annotations

from collections.abc import Callable

from ingestion.legal.citation import RegulationRef, parse_regulation
from ingestion.legal.relations import SectionText, extract_relations
from tests.relations.helpers import Regulation

Chunked = Callable[[str], list[SectionText]]
OWN = RegulationRef("Peraturan Daerah", "5", "2024", "Banjarnegara")
ITE = "Undang-Undang Nomor 11 Tahun 2008 tentang Informasi dan Transaksi Elektronik"
ITE_1 = (
    "Undang-Undang Nomor 19 Tahun 2016 tentang Perubahan atas Undang-Undang Nomor 11 Tahun"
    " 2008 tentang Informasi dan Transaksi Elektronik (Lembaran Negara Republik Indonesia"
    " Tahun 2016 Nomor 251)"
)


def found(
    regulation: Regulation, chunked: Chunked, own: RegulationRef | None = OWN
) -> set[tuple[str, str]]:
    relations = extract_relations("judul", chunked(regulation.text()), own)
    return {(r.kind, r.citation) for r in relations}


def test_the_title_perubahan_kedua_atas_names_the_amended_law(chunked: Chunked) -> None:
    regulation = Regulation(
        heading="UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 1 TAHUN 2024",
        tentang=f"PERUBAHAN KEDUA ATAS {ITE.upper()}",
        menetapkan="UNDANG-UNDANG TENTANG PERUBAHAN KEDUA ATAS UNDANG-UNDANG NOMOR 11 TAHUN"
        " 2008 TENTANG INFORMASI DAN TRANSAKSI ELEKTRONIK.",
    )
    own = RegulationRef("Undang-Undang", "1", "2024")
    relations = extract_relations("UU 1/2024", chunked(regulation.text()), own)
    assert [(r.kind, r.citation, r.part) for r in relations] == [("amends", "UU 11/2008", "title")]
    assert relations[0].title == "INFORMASI DAN TRANSAKSI ELEKTRONIK"
    evidence = relations[0].evidence
    assert evidence[slice(*relations[0].span)] == "UNDANG-UNDANG NOMOR 11 TAHUN 2008"


def test_the_menetapkan_line_alone_is_enough(chunked: Chunked) -> None:
    regulation = Regulation(
        tentang="RETRIBUSI PASAR",
        menetapkan="PERATURAN DAERAH TENTANG PERUBAHAN ATAS PERATURAN DAERAH NOMOR 3 TAHUN"
        " 2010 TENTANG RETRIBUSI PASAR.",
    )
    # The Perda of Banjarnegara names its own region's Perda without the region.
    assert found(regulation, chunked) == {("amends", "Perda Banjarnegara 3/2010")}


def test_dicabut_dan_dinyatakan_tidak_berlaku_in_the_closing_provisions(chunked: Chunked) -> None:
    regulation = Regulation(
        closing=[
            "Pada saat Peraturan Daerah ini mulai berlaku, Peraturan Daerah Kabupaten"
            " Banjarnegara Nomor 3 Tahun 2010 tentang Retribusi Pasar (Lembaran Daerah"
            " Kabupaten Banjarnegara Tahun 2010 Nomor 3) dicabut dan dinyatakan tidak berlaku.",
            "Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.",
        ]
    )
    assert found(regulation, chunked) == {("repeals", "Perda Banjarnegara 3/2010")}


def test_dengan_berlakunya_maka_dicabut_lists_every_repealed_regulation(chunked: Chunked) -> None:
    regulation = Regulation(
        closing=[
            "Dengan berlakunya Peraturan Daerah ini, maka:\n"
            "a. Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar; dan\n"
            "b. Peraturan Bupati Banjarnegara Nomor 12 Tahun 2011 tentang Tata Cara Pemungutan"
            " Retribusi Pasar,\ndicabut.",
            "Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.",
        ]
    )
    assert found(regulation, chunked) == {
        ("repeals", "Perda Banjarnegara 3/2010"),
        ("repeals", "Perbup Banjarnegara 12/2011"),
    }


def test_the_pencabutan_title_repeals(chunked: Chunked) -> None:
    regulation = Regulation(
        tentang="PENCABUTAN PERATURAN DAERAH NOMOR 7 TAHUN 2012 TENTANG IZIN GANGGUAN"
    )
    assert found(regulation, chunked) == {("repeals", "Perda Banjarnegara 7/2012")}


def test_beberapa_ketentuan_diubah_amends_the_law_not_its_earlier_amendment(
    chunked: Chunked,
) -> None:
    regulation = Regulation(
        heading="UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 1 TAHUN 2024",
        tentang="PERUBAHAN KEDUA",
        menetapkan="UNDANG-UNDANG TENTANG PERUBAHAN KEDUA.",
        pasals=[
            f"Beberapa ketentuan dalam {ITE} (Lembaran Negara Republik Indonesia Tahun 2008"
            f" Nomor 58) sebagaimana telah diubah dengan {ITE_1}, diubah sebagai berikut:\n"
            "1. Ketentuan Pasal 5 diubah sehingga berbunyi sebagai berikut.",
            "Ketentuan lain tetap.",
        ],
    )
    own = RegulationRef("Undang-Undang", "1", "2024")
    assert found(regulation, chunked, own) == {("amends", "UU 11/2008")}


def test_mengingat_and_menimbang_are_not_relations(chunked: Chunked) -> None:
    regulation = Regulation(
        menimbang=[
            "bahwa Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar perlu dicabut"
            " dan dinyatakan tidak berlaku",
            "bahwa beberapa ketentuan dalam Peraturan Daerah Nomor 4 Tahun 2011 perlu diubah",
        ],
        mengingat=[
            "Undang-Undang Nomor 23 Tahun 2014 tentang Pemerintahan Daerah sebagaimana telah"
            " diubah beberapa kali, terakhir dengan Undang-Undang Nomor 9 Tahun 2015 tentang"
            " Perubahan Kedua atas Undang-Undang Nomor 23 Tahun 2014 tentang Pemerintahan Daerah",
            "Peraturan Pemerintah Nomor 12 Tahun 2019 tentang Pengelolaan Keuangan Daerah",
        ],
    )
    assert found(regulation, chunked) == set()


def test_a_regulation_named_only_after_sebagaimana_telah_diubah_is_not_repealed(
    chunked: Chunked,
) -> None:
    regulation = Regulation(
        closing=[
            "Pada saat Peraturan Daerah ini mulai berlaku, Peraturan Daerah Nomor 3 Tahun 2010"
            " tentang Retribusi Pasar (Lembaran Daerah Tahun 2010 Nomor 3) sebagaimana telah"
            " diubah dengan Peraturan Daerah Nomor 2 Tahun 2015 tentang Perubahan atas"
            " Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar (Lembaran Daerah"
            " Tahun 2015 Nomor 2) dan Peraturan Daerah Nomor 6 Tahun 2018 tentang Perubahan"
            " Kedua (Lembaran Daerah Tahun 2018 Nomor 6), dicabut dan dinyatakan tidak berlaku.",
            "Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.",
        ]
    )
    assert found(regulation, chunked) == {("repeals", "Perda Banjarnegara 3/2010")}


def test_a_repeal_of_some_articles_or_of_a_part_is_not_a_repeal(chunked: Chunked) -> None:
    regulation = Regulation(
        closing=[
            "Pada saat Peraturan Daerah ini mulai berlaku, Pasal 5 dan Pasal 6 Peraturan Daerah"
            " Nomor 3 Tahun 2010 tentang Retribusi Pasar dicabut dan dinyatakan tidak berlaku.",
            "Peraturan Bupati Nomor 9 Tahun 2016 tentang Tarif, sepanjang mengatur tarif"
            " kios, dicabut dan dinyatakan tidak berlaku.",
            "Semua peraturan pelaksanaan dari Peraturan Daerah Nomor 4 Tahun 2011 dinyatakan"
            " masih tetap berlaku sepanjang tidak bertentangan dengan Peraturan Daerah ini.",
            "Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.",
        ]
    )
    assert found(regulation, chunked) == set()


def test_a_verb_reporting_another_repeal_is_not_this_regulations_decision(
    chunked: Chunked,
) -> None:
    regulation = Regulation(
        closing=[
            "Izin yang diterbitkan berdasarkan Peraturan Daerah Nomor 3 Tahun 2010 yang telah"
            " dicabut dengan Peraturan Daerah Nomor 1 Tahun 2020 tetap berlaku.",
            "Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.",
        ]
    )
    assert found(regulation, chunked) == set()


def test_dicabut_in_an_ordinary_article_is_not_read(chunked: Chunked) -> None:
    regulation = Regulation(
        pasals=[
            "Izin usaha berdasarkan Peraturan Daerah Nomor 3 Tahun 2010 dicabut apabila"
            " pemegang izin melanggar ketentuan.",
            "Retribusi dipungut atas pelayanan pasar.",
        ]
    )
    assert found(regulation, chunked) == set()


def test_the_regulation_never_relates_to_itself(chunked: Chunked) -> None:
    regulation = Regulation(
        closing=[
            "Pada saat Peraturan Daerah Kabupaten Banjarnegara Nomor 5 Tahun 2024 ini mulai"
            " berlaku, Peraturan Daerah Nomor 3 Tahun 2010 dicabut.",
            "Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.",
        ]
    )
    assert found(regulation, chunked) == {("repeals", "Perda Banjarnegara 3/2010")}


def test_without_a_closing_bab_the_last_articles_are_the_closing_provisions(
    chunked: Chunked,
) -> None:
    regulation = Regulation(
        heading="PERATURAN BUPATI PINRANG\nNOMOR 2 TAHUN 2024",
        closing_bab=False,
        pasals=["Tarif ditetapkan dalam Lampiran."],
        closing=[
            "Peraturan Bupati Pinrang Nomor 1 Tahun 2019 tentang Tarif dicabut dan dinyatakan"
            " tidak berlaku.",
            "Peraturan Bupati ini mulai berlaku pada tanggal diundangkan.",
        ],
    )
    own = parse_regulation("PERATURAN BUPATI PINRANG NOMOR 2 TAHUN 2024")
    assert found(regulation, chunked, own) == {("repeals", "Perbup Pinrang 1/2019")}


def test_an_emergency_law_repealed_is_not_the_uu_of_the_same_number(chunked: Chunked) -> None:
    """ "Undang-undang Darurat No. 7 tahun 1955" is a law of its own (UU Drt 7/1955): read as
    UU 7/1955 it would repeal, and hide, a law still in force."""
    regulation = Regulation(
        heading="UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 3 TAHUN 1960",
        closing=(
            "Undang-undang Darurat No. 7 tahun 1955 tentang Pengusutan dicabut dan dinyatakan"
            " tidak berlaku.",
            "Undang-undang ini mulai berlaku pada tanggal diundangkan.",
        ),
    )
    own = RegulationRef("Undang-Undang", "3", "1960")
    assert found(regulation, chunked, own) == {("repeals", "UU Drt 7/1955")}
