"""An OCR'd amending regulation prints its restated Pasal as "Pasal26" (no space), heads a
Pasal with a markdown heading right after an item the scan left ending in "atau", and closes
with its own "Pasal II". Each is a Pasal of its own, so its words are cited as that Pasal."""

from __future__ import annotations

from ingestion.legal.structure import LegalBuilder
from ingestion.legal.units import pasal_number

INSTRUCTIONS = [
    "Pasal I",
    "Beberapa ketentuan dalam Peraturan Pemerintah Nomor 36 Tahun 2021 diubah sebagai berikut:",
    "1. Ketentuan Pasal 26 diubah sehingga berbunyi sebagai berikut:",
]


def _headings(lines: list[tuple[str, bool]]) -> list[str]:
    builder = LegalBuilder()
    for line, heading in lines:
        builder.add_line(line, 1, None, heading=heading)
    return [s.path[-1] for s in builder.sections if s.kind == "pasal"]


def test_a_pasal_number_printed_against_the_word_heads_its_pasal() -> None:
    lines = ["Pasal 25", "Upah minimum terdiri atas dua jenis.", "Pasal26", "(1) Upah naik."]
    assert _headings([(line, False) for line in lines]) == ["Pasal 25", "Pasal 26"]


def test_a_heading_block_after_a_line_ending_in_atau_is_still_a_heading() -> None:
    lines = [
        (INSTRUCTIONS[0], False),
        (INSTRUCTIONS[1], False),
        ("2. Di antara Pasal 34 dan Pasal 35 disisipkan Pasal 34A dan Pasal 34B:", False),
        ("Pasal 34A", True),
        ("a. menetapkan Upah minimum kabupaten/kota; atau", False),
        ("Pasal 34B", True),
        ("Upah minimum bagi kabupaten/kota hasil pemekaran berlaku.", False),
    ]
    assert _headings(lines) == ["Pasal 34A", "Pasal 34B"]


def test_the_same_line_in_running_text_after_atau_stays_a_wrapped_reference() -> None:
    lines = [
        ("Pasal 5", False),
        ("(1) Upah ditetapkan sebagaimana dimaksud dalam Pasal 3 atau", False),
        ("Pasal 4 ayat (2).", False),
    ]
    assert _headings(lines) == ["Pasal 5"]


def test_an_amending_laws_own_pasal_ii_is_a_pasal_outside_the_amended_chapters() -> None:
    lines = [
        *INSTRUCTIONS,
        "BAB V",
        "UPAH MINIMUM",
        "Pasal 26",
        "(1) Upah minimum ditetapkan setiap tahun.",
        "Pasal II",
        "Peraturan Pemerintah ini mulai berlaku pada tanggal diundangkan.",
    ]
    builder = LegalBuilder()
    for line in lines:
        builder.add_line(line, 1, None)
    pasals = [s.path for s in builder.sections if s.kind == "pasal"]
    assert pasals[-1] == ["Pasal II"]
    assert pasal_number(pasals[-1]) == "II"


def test_pasal_ii_outside_an_amending_law_is_not_a_heading() -> None:
    lines = [
        "Pasal 1",
        "Dalam Qanun ini yang dimaksud dengan Pasal",
        "Pasal II",
        "Pasal 2",
        "Teks.",
    ]
    assert _headings([(line, False) for line in lines]) == ["Pasal 1", "Pasal 2"]
