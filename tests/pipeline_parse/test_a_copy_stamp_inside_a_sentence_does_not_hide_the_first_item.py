"""A converter that flattens an official copy's first page can print its stamp "SALINAN"
inside the Ketentuan Umum ("yang dimaksud dengan: SALINAN 1. Jaminan …"). The stamp is
page furniture: alone on its line, or right before an item's number, it goes, and angka 1
is a unit as it is without the stamp. Elsewhere the word in capitals is the regulation's
own and stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.pipeline.chunk import chunk_document
from ingestion.pipeline.parse import ParseLimits, parse

FLATTENED = """PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 45 TAHUN 2015

BAB I KETENTUAN UMUM

Pasal 1

Dalam Peraturan Pemerintah ini yang dimaksud dengan: SALINAN 1. Jaminan Pensiun adalah jaminan.
2. Peserta adalah setiap orang yang telah membayar iuran.

Pasal 2

Jaminan Pensiun diselenggarakan secara nasional.
"""


def _units(tmp_path: Path, text: str, fmt: str) -> list[tuple[str, str | None, str]]:
    path = tmp_path / f"pp_45_2015.{fmt}"
    path.write_text(text, encoding="utf-8")
    blocks = parse(path, fmt, ParseLimits()).blocks
    chunks = chunk_document(blocks, budget_tokens=512, overlap_tokens=0)
    (chunk,) = [c for c in chunks if c.heading_path[-1] == "Pasal 1"]
    return [(u.kind.value, u.angka, chunk.text[u.start : u.end][:14]) for u in chunk.units]


@pytest.mark.parametrize("fmt", ["md", "txt"])
def test_the_stamp_goes_and_angka_1_is_a_unit(tmp_path: Path, fmt: str) -> None:
    units = _units(tmp_path, FLATTENED, fmt)
    assert units[1:] == [("angka", "1", "1. Jaminan Pen"), ("angka", "2", "2. Peserta ada")]


def test_the_stamp_alone_on_its_line_goes(tmp_path: Path) -> None:
    path = tmp_path / "sampul.md"
    path.write_text("## SALINAN\n\nSALINAN\nPRESIDEN REPUBLIK INDONESIA\n", encoding="utf-8")
    blocks = parse(path, "md", ParseLimits()).blocks
    assert [b.text for b in blocks] == ["PRESIDEN REPUBLIK INDONESIA"]


@pytest.mark.parametrize(
    "line",
    [
        'frasa "diberikan sebagai SALINAN yang sama bunyinya" dicantumkan pada akta.',
        "BAB IV SALINAN PUTUSAN",
    ],
)
def test_the_word_in_capitals_in_the_regulations_own_text_stays(tmp_path: Path, line: str) -> None:
    path = tmp_path / "uu_2_2014.txt"
    path.write_text(f"Pasal 1\n\n{line}\n", encoding="utf-8")
    blocks = parse(path, "txt", ParseLimits()).blocks
    assert line in "\n".join(b.text for b in blocks)
