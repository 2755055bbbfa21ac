"""Scans print "Pasal" with its l read as a bracket, a digit or a letter ("Pasa] 50",
"Pasa1 9", "Pasa-l 17"): before a number such a word is still a Pasal heading, so the
restated Pasal of an OCR'd amending law has its own units; other words stay text."""

from __future__ import annotations

import pytest

from ingestion.legal.structure import LegalBuilder


def _headings(lines: list[str]) -> list[str]:
    builder = LegalBuilder()
    for line in lines:
        builder.add_line(line, 1, None)
    return [s.path[-1] for s in builder.sections if s.kind == "pasal"]


@pytest.mark.parametrize("word", ["Pasal", "Pasa]", "Pasa1", "Pasai", "PasaI", "Pasa-l", "Pasa|"])
def test_a_damaged_pasal_word_before_a_number_heads_a_pasal(word: str) -> None:
    lines = ["Pasal 49", "Jalan Tol diselenggarakan.", f"{word} 50", "(1) Pengusahaan Jalan Tol."]
    assert _headings(lines) == ["Pasal 49", "Pasal 50"]


def test_a_word_like_pasal_without_a_number_stays_text() -> None:
    lines = ["Pasal 3", "Kerajaan Samudera Pasai berdiri di Aceh.", "Pasa] ini juga."]
    assert _headings(lines) == ["Pasal 3"]
