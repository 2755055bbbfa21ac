"""A catchword OCR read with two dots ("(2) Penyampaian.." for "(2) Penyampaian . . .") is
dropped where the words after it repeat it: from the structure of units and from the text
the amendment reader reads. Two dots the next words do not repeat stay."""

from __future__ import annotations

from ingestion.legal.amendments.text import strip_catchwords
from ingestion.legal.structure import legal_sections
from ingestion.pipeline.base import Block

LINES = [
    "Pasal 12",
    "(1) Setiap gratifikasi wajib dilaporkan.",
    "(2) Penyampaian..",
    "(2) Penyampaian laporan wajib dilakukan dalam 30 hari.",
    "Pasal 13",
    "Cukup jelas..",
]


def _pasal() -> dict[str, str]:
    sections = legal_sections([Block(line) for line in LINES]) or []
    return {
        s.path[-1]: " ".join(a.text for u in s.units for a in u.atoms)
        for s in sections
        if s.kind == "pasal"
    }


def test_the_units_do_not_hold_the_catchword() -> None:
    assert _pasal()["Pasal 12"].endswith(
        "(1) Setiap gratifikasi wajib dilaporkan. "
        "(2) Penyampaian laporan wajib dilakukan dalam 30 hari."
    )


def test_two_dots_no_words_repeat_stay() -> None:
    assert _pasal()["Pasal 13"].endswith("Cukup jelas..")


def test_the_amendment_readers_text_does_not_hold_it() -> None:
    text = "(1) Setiap gratifikasi wajib dilaporkan.\n(2) Penyampaian..\n(2) Penyampaian laporan"
    assert strip_catchwords(text) == (
        "(1) Setiap gratifikasi wajib dilaporkan.\n(2) Penyampaian laporan"
    )


def test_a_text_of_no_lines_has_no_structure() -> None:
    assert legal_sections([]) is None
    assert legal_sections([Block("")]) is None
