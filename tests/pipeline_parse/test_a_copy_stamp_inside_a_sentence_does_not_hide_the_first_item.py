"""A converter that flattens an official copy's first page can print its stamp "SALINAN"
inside the Ketentuan Umum ("yang dimaksud dengan: SALINAN 1. Jaminan …"). The stamp is
page furniture, not the regulation's word: angka 1 is a unit as it is without the stamp.
"""

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


def test_the_word_salinan_in_the_regulations_own_sentence_stays(tmp_path: Path) -> None:
    path = tmp_path / "pasal.txt"
    path.write_text("Pasal 3\n\nSalinan akta diberikan kepada pemohon.\n", encoding="utf-8")
    blocks = parse(path, "txt", ParseLimits()).blocks
    assert "Salinan akta diberikan" in "\n".join(b.text for b in blocks)
