"""Real regulations from the development corpus (skipped when absent)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingestion.pipeline.base import ChunkDraft
from ingestion.pipeline.chunk import chunk_document
from ingestion.pipeline.parse import ParseLimits, parse
from tests.corpus import CORPUS

GALQA = CORPUS / "galqa" / "docs"


def _chunk(name: str, fmt: str) -> list[ChunkDraft]:
    path = CORPUS / "docs" / name
    if not path.exists():
        pytest.skip("corpus absent")
    parsed = parse(path, fmt, ParseLimits())
    return chunk_document(parsed.blocks, budget_tokens=350, overlap_tokens=40)


def _find(chunks: list[ChunkDraft], path: list[str]) -> ChunkDraft:
    return next(c for c in chunks if c.heading_path[: len(path)] == path)


def test_uu_13_2003_pasal_with_its_bab_and_page() -> None:
    chunks = _chunk("uu_13_2003_ketenagakerjaan.pdf", "pdf")
    pasal_5 = _find(chunks, ["BAB III KESEMPATAN DAN PERLAKUAN YANG SAMA", "Pasal 5"])
    assert pasal_5.page_from == 5
    assert "tanpa diskriminasi" in pasal_5.text
    penjelasan = _find(chunks, ["PENJELASAN", "Pasal 1"])
    assert penjelasan.page_from >= 61


def test_uu_13_2003_chunks_respect_the_budget() -> None:
    chunks = _chunk("uu_13_2003_ketenagakerjaan.pdf", "pdf")
    assert max(c.token_count for c in chunks) <= 350


def test_pp_37_2021_markdown_finds_inline_headers() -> None:
    chunks = _chunk("pp_37_2021_jkp.md", "md")
    pasal_4 = _find(
        chunks,
        ["BAB II KEPESERTAAN DAN TATA CARA PENDAFTARAN", "Bagian Kesatu Kepesertaan", "Pasal 4"],
    )
    assert pasal_4.text.startswith("Pasal 4 (1) Peserta terdiri atas")
    assert _find(chunks, ["PENJELASAN", "Pasal 19"]).text.startswith("Pasal 19")


def test_uu_cipta_kerja_pages_keep_their_printed_structure() -> None:
    chunks = _chunk("uu_cipta_kerja_pages_3-13.pdf", "pdf")
    pasal_3 = _find(chunks, ["BAB II ASAS, TUJUAN, DAN RUANG LINGKUP", "Pasal 3"])
    assert pasal_3.page_from == 3  # third page of the excerpt, printed "- 5 -"
    assert "Undang-Undang ini dibentuk" in pasal_3.text
    # the page-end catchwords ("Pasal 3 . . .") announce a header; they are not one
    assert not any(c.text.rstrip().endswith(". . .") for c in chunks)


def _galqa_docs() -> list[Path]:
    return sorted(GALQA.glob("*.txt")) if GALQA.exists() else []


@pytest.mark.parametrize("path", _galqa_docs(), ids=lambda p: p.stem)
def test_every_galqa_pasal_header_is_in_some_chunk_path(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expected = {f"Pasal {n}" for n in re.findall(r"^Pasal (\d+[A-Z]?)\s*$", text, re.M)}
    parsed = parse(path, "txt", ParseLimits())
    chunks = chunk_document(parsed.blocks, budget_tokens=350, overlap_tokens=40)
    found = {part for c in chunks for part in c.heading_path if part.startswith("Pasal ")}
    assert expected and expected <= found
    for chunk in chunks:
        if "Pasal" in chunk.text.split("\n", 1)[0][:6]:
            assert any(p.startswith("Pasal ") for p in chunk.heading_path)


def test_galqa_known_pasal_has_its_bab_in_the_path() -> None:
    path = GALQA / "pp_10_2020.txt"
    if not path.exists():
        pytest.skip("corpus absent")
    chunks = chunk_document(
        parse(path, "txt", ParseLimits()).blocks, budget_tokens=350, overlap_tokens=40
    )
    pasal_6 = _find(chunks, ["BAB II PELAKSANAAN PENEMPATAN PEKERJA MIGRAN INDONESIA", "Pasal 6"])
    assert pasal_6.text.startswith("Pasal 6")
