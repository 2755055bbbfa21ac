"""OCR reads an ayat's closing parenthesis as a 1 ("(21 Upah …" for "(2) Upah …", as in
the outside set's PP 51/2023). When the number without that 1 continues the Pasal's ayat,
the line is that ayat; any other number stays text."""

from __future__ import annotations

from ingestion.pipeline.base import Block
from ingestion.pipeline.chunk import chunk_document


def _ayat(text: str) -> list[str | None]:
    chunks = chunk_document([Block(text, page=1)], budget_tokens=512, overlap_tokens=0)
    pasal = next(c for c in chunks if c.heading_path[-1] == "Pasal 25")
    return [u.ayat for u in pasal.units]


def _regulation(*ayat_lines: str) -> str:
    return "\n".join(
        [
            "PERATURAN PEMERINTAH NOMOR 51 TAHUN 2023",
            "Pasal 24",
            "Upah minimum berlaku bagi Pekerja/Buruh.",
            "Pasal 25",
            *ayat_lines,
            "Pasal 26",
            "Penyesuaian dilakukan setiap tahun.",
        ]
    )


def test_a_second_ayat_printed_21_is_ayat_2() -> None:
    text = _regulation(
        "(1) Upah minimum terdiri atas upah minimum provinsi.",
        "(21 Upah minimum ditetapkan berdasarkan kondisi ekonomi.",
        "(3) Penetapan Upah minimum dilakukan bagi provinsi.",
        "(41 Dihapus.",
    )
    assert _ayat(text) == [None, "1", "2", "3", "4"]


def test_a_number_that_does_not_continue_the_ayat_stays_text() -> None:
    text = _regulation(
        "(1) Upah minimum terdiri atas upah minimum provinsi.",
        "(31 Upah minimum ditetapkan berdasarkan kondisi ekonomi.",
    )
    assert _ayat(text) == [None, "1"]
