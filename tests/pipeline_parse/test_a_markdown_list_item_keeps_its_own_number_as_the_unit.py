"""Markdown from a PDF converter writes a regulation's numbered paragraphs as list items
("- (1) …", "- a. …"). The bullet is the converter's; the number is the document's, so the
ayat and huruf are units as they are in the plain text."""

from __future__ import annotations

from pathlib import Path

from ingestion.pipeline.chunk import chunk_document
from ingestion.pipeline.parse import ParseLimits, parse

CONVERTED = """# PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 5 TAHUN 2021

## Pasal 13

- (1) Perizinan Berusaha untuk kegiatan usaha dengan tingkat Risiko menengah rendah berupa:
- a. NIB; dan
- b. Sertifikat Standar.
- (2) Sertifikat Standar sebagaimana dimaksud pada ayat (1) huruf b merupakan legalitas.

## Pasal 14

- (1) Perizinan Berusaha untuk kegiatan usaha dengan tingkat Risiko menengah tinggi berupa:

a. NIB; dan

b. Sertifikat Standar.

- (2) Sertifikat Standar diterbitkan Pemerintah Pusat.
"""


def _labels(tmp_path: Path, text: str) -> dict[str, list[tuple[str, str | None, str | None]]]:
    path = tmp_path / "pp_5_2021.md"
    path.write_text(text, encoding="utf-8")
    blocks = parse(path, "md", ParseLimits()).blocks
    chunks = chunk_document(blocks, budget_tokens=512, overlap_tokens=0)
    return {c.heading_path[-1]: [(u.kind.value, u.ayat, u.huruf) for u in c.units] for c in chunks}


def test_a_bulleted_ayat_and_huruf_are_units_of_their_pasal(tmp_path: Path) -> None:
    units = _labels(tmp_path, CONVERTED)
    assert units["Pasal 13"] == [
        ("pasal", None, None),
        ("ayat", "1", None),
        ("huruf", "1", "a"),
        ("huruf", "1", "b"),
        ("ayat", "2", None),
    ]


def test_bulleted_and_bare_items_mix_in_one_pasal(tmp_path: Path) -> None:
    units = _labels(tmp_path, CONVERTED)
    assert units["Pasal 14"] == [
        ("pasal", None, None),
        ("ayat", "1", None),
        ("huruf", "1", "a"),
        ("huruf", "1", "b"),
        ("ayat", "2", None),
    ]


def test_a_bullet_before_words_or_a_page_number_stays_text(tmp_path: Path) -> None:
    path = tmp_path / "catatan.md"
    path.write_text("- Kebijaksanaan umum adalah arah.\n- 27 - PRESIDEN\n", encoding="utf-8")
    blocks = parse(path, "md", ParseLimits()).blocks
    assert [b.text for b in blocks] == ["- Kebijaksanaan umum adalah arah.\n- 27 - PRESIDEN"]
