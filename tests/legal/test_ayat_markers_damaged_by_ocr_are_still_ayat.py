"""OCR text runs ayat into one line, drops a parenthesis or leaves a stray comma: the ayat
that continues its Pasal's sequence is still an ayat; references and other numbers are not."""

from __future__ import annotations

import pytest

from ingestion.legal.structure import LegalBuilder

TABLE: list[tuple[str, list[str], list[str]]] = [
    (
        "inline after noise, not after a sentence end",
        ["Pasal 7", "(1) Pemberian informasi.", "(2) Informasi diberikan. y (3) Pemberian daring."],
        ["ayat (1)", "ayat (2)", "ayat (3)"],
    ),
    (
        "closing parenthesis lost",
        ["Pasal 7", "(1) Pemberian informasi.", "(2) Informasi diberikan. (3 Dalam hal belum."],
        ["ayat (1)", "ayat (2)", "ayat (3)"],
    ),
    (
        "several in one line, each the next",
        ["Pasal 7", "(1) Satu. (2 Dua ada. x (3) Tiga ada. (4) Empat."],
        ["ayat (1)", "ayat (2)", "ayat (3)", "ayat (4)"],
    ),
    (
        "line start after a stray comma",
        ["Pasal 9", "(1). Satu.", "(2). Dua sesuai kewenangan. dg Ta ,", "(3). Tiga ada."],
        ["ayat (1)", "ayat (2)", "ayat (3)"],
    ),
    (
        "a reference to the next ayat stays text",
        ["Pasal 7", "(1) Satu.", "(2) Menurut ayat (1) dan (3) Menteri menetapkan."],
        ["ayat (1)", "ayat (2)"],
    ),
    (
        "a wrapped reference after 'ayat' stays text",
        ["Pasal 7", "(1) Satu.", "(2) Sebagaimana dimaksud pada ayat", "(3) Menteri menetapkan."],
        ["ayat (1)", "ayat (2)"],
    ),
    (
        "a number out of sequence stays text",
        ["Pasal 20", "(1) Satu.", "(2) Dua ada. (35 P3MI bertanggung jawab."],
        ["ayat (1)", "ayat (2)"],
    ),
    (
        "a parenthesised count in words stays text",
        ["Pasal 5", "(1) Satu.", "(2) Jangka waktu (3 tahun) berlaku. x (3 bulan) lagi."],
        ["ayat (1)", "ayat (2)"],
    ),
]


@pytest.mark.parametrize(
    ("lines", "expected"), [row[1:] for row in TABLE], ids=[r[0] for r in TABLE]
)
def test_the_ayat_of_a_pasal(lines: list[str], expected: list[str]) -> None:
    builder = LegalBuilder()
    for line in lines:
        builder.add_line(line, 1, None)
    pasal = builder.sections[-1]
    assert [u.label for u in pasal.units if u.label] == expected
