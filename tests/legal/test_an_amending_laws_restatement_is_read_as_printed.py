"""An amending law's Pasal I as JDIH PDFs and scans print it: a restated Pasal without its
heading, a heading OCR damaged, older laws' "Pasal 12 A", and headings out of sequence."""

from __future__ import annotations

from ingestion.legal.structure import legal_sections
from ingestion.pipeline.base import Block

OPENING = [
    "PERATURAN KEPALA BADAN PENGAWAS TENAGA NUKLIR NOMOR 1 TAHUN 2013",
    "Pasal I",
    "Beberapa ketentuan dalam Peraturan Kepala Badan Pengawas Tenaga Nuklir Nomor 3 Tahun "
    "2012 diubah sebagai berikut:",
]


def _pasal(lines: list[str]) -> dict[str, str]:
    sections = legal_sections([Block(line) for line in lines]) or []
    return {
        s.path[-1]: " ".join(a.text for u in s.units for a in u.atoms)
        for s in sections
        if s.kind == "pasal"
    }


def test_a_pasal_restated_without_its_heading_is_that_pasal() -> None:
    pasal = _pasal(
        [
            *OPENING,
            "1. Ketentuan Pasal 5 diubah sehingga berbunyi sebagai berikut:",
            "Bendahara Penerimaan melakukan Penagihan PNBP kepada Wajib Bayar.",
            "2. Ketentuan Pasal 10 ayat (4) huruf b diubah sehingga berbunyi sebagai berikut:",
            "(4) Apabila Wajib Bayar tidak membayar maka:",
            "a. BAPETEN mengirimkannya sebagai piutang negara; dan",
            "b. BAPETEN akan mencabut izin.",
            "Pasal II",
        ]
    )
    assert pasal["Pasal 5"] == "Bendahara Penerimaan melakukan Penagihan PNBP kepada Wajib Bayar."
    assert pasal["Pasal 10"].startswith("(4) Apabila Wajib Bayar tidak membayar")


def test_a_heading_ocr_damaged_takes_the_number_the_instruction_names() -> None:
    pasal = _pasal(
        [
            *OPENING,
            "1. Di antara Pasal 27 dan Pasal 28 disisipkan 2 (dua) pasal, yakni Pasal 27A dan "
            "Pasal 27B sehingga berbunyi sebagai berikut:",
            "Pasal 27A",
            "Setiap Orang dilarang menyerang kehormatan orang lain.",
            "Pasal 278",
            "(1) Setiap Orang dengan sengaja mendistribusikan informasi.",
        ]
    )
    assert "Pasal 27B" in pasal and "Pasal 278" not in pasal


def test_older_laws_letter_after_a_space_is_part_of_the_number() -> None:
    pasal = _pasal(
        [
            *OPENING,
            "1. Di antara Pasal 12 dan Pasal 13 disisipkan 2 (dua) pasal baru yakni Pasal 12 A "
            "dan Pasal 12 B yang berbunyi sebagai berikut:",
            "Pasal 12 A",
            "(1) Ketentuan mengenai pidana penjara tidak berlaku.",
            "Pasal 12 B",
            "(1) Setiap gratifikasi dianggap pemberian suap.",
        ]
    )
    assert ["Pasal 12A", "Pasal 12B"] == [p for p in pasal if p.startswith("Pasal 12")]


def test_a_heading_misread_out_of_sequence_takes_its_neighbours_number() -> None:
    lines = ["UNDANG-UNDANG NOMOR 10 TAHUN 1995"]
    for number, printed in ((24, 24), (25, 25), (26, 16), (27, 27), (44, 44), (45, 46), (46, 46)):
        lines += [f"Pasal {printed}", f"Isi ketentuan yang ke-{number} berlaku."]
    pasal = _pasal(lines)
    assert list(pasal) == [f"Pasal {n}" for n in (24, 25, 26, 27, 44, 45, 46)]
    assert pasal["Pasal 26"].startswith("Pasal 26 ")


def test_a_catchword_run_onto_a_line_of_text_goes_and_the_text_stays() -> None:
    pasal = _pasal(
        [
            "UNDANG-UNDANG NOMOR 10 TAHUN 1995",
            "Pasal 1",
            "Isi ketentuan pertama.",
            "Pasal 2",
            "e. penggunaan dokumen pelengkap pabean; diatur oleh Menteri. Bagian…",
            "Bagian Kedua Tempat",
            "Pasal 3",
            "Isi ketentuan ketiga berlaku. Pasal 4…",
            "Pasal 4",
            "Isi ketentuan keempat.",
        ]
    )
    assert pasal["Pasal 2"].endswith("diatur oleh Menteri.")
    assert pasal["Pasal 3"].endswith("berlaku.")
