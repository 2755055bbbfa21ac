"""A letter outside Indonesian's alphabet that OCR put into a word ("wajiüb", "Wajüb") is
mended when the same document prints the word right often enough; a name really spelt with
an umlaut, which has no such twin, keeps it."""

from __future__ import annotations

from ingestion.pipeline.base import Block
from ingestion.pipeline.ocr.words import mend_foreign_letters

CLEAN = [Block("Setiap Wajib Pajak wajib mendaftarkan diri; wajib membayar; WAJIB lapor.")]


def test_an_invented_letter_is_dropped_or_read_as_the_letter_the_document_prints() -> None:
    blocks = [Block("(1) Wajiüb Pajak wajüb membayar pajak."), Block("KEWAJIÜB")]
    changed = mend_foreign_letters(blocks, [*CLEAN, *blocks])
    assert [b.text for b in blocks] == ["(1) Wajib Pajak wajib membayar pajak.", "KEWAJIÜB"]
    assert changed == 2


def test_a_word_whose_twin_is_rare_keeps_its_letter() -> None:
    blocks = [Block("Perjanjian dengan Müller GmbH dan Muller.")]
    mend_foreign_letters(blocks, [*CLEAN, *blocks])
    assert blocks[0].text == "Perjanjian dengan Müller GmbH dan Muller."
