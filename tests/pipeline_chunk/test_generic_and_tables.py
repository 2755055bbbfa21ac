"""Non-legal text, tables, token estimate and OCR confidence."""

from __future__ import annotations

import itertools

from ingestion.pipeline.base import Block, BlockKind
from ingestion.pipeline.chunk import chunk_document, estimate_tokens


def _sentences(prefix: str, count: int) -> str:
    return " ".join(f"{prefix} kalimat nomor {n} berisi uraian kegiatan." for n in range(count))


def test_the_token_estimate_is_whitespace_words_times_one_point_three() -> None:
    assert estimate_tokens("satu dua tiga") == 4
    assert estimate_tokens(" ".join(["kata"] * 100)) == 130
    assert estimate_tokens("") == 0


def test_plain_text_packs_paragraphs_under_their_heading_path() -> None:
    blocks = [
        Block("Laporan Tahunan", kind=BlockKind.HEADING, level=1),
        Block("Ringkasan", kind=BlockKind.HEADING, level=2),
        Block("Paragraf pertama singkat."),
        Block("Paragraf kedua singkat."),
        Block("Lampiran Data", kind=BlockKind.HEADING, level=2),
        Block("Isi lampiran."),
    ]
    chunks = chunk_document(blocks, budget_tokens=200, overlap_tokens=20)
    assert [c.heading_path for c in chunks] == [
        ["Laporan Tahunan", "Ringkasan"],
        ["Laporan Tahunan", "Lampiran Data"],
    ]
    assert "Paragraf pertama" in chunks[0].text and "Paragraf kedua" in chunks[0].text


def test_a_long_paragraph_splits_by_sentences_with_a_small_overlap() -> None:
    chunks = chunk_document([Block(_sentences("Uji", 60))], budget_tokens=100, overlap_tokens=20)
    assert len(chunks) > 3
    assert all(c.token_count <= 100 for c in chunks)
    for before, after in itertools.pairwise(chunks):
        last_sentence = before.text.rsplit(". ", 1)[-1]
        assert after.text.startswith(last_sentence)


def test_a_table_splits_by_rows_and_repeats_its_header_row() -> None:
    rows = [["Kabupaten", "Tahun", "Nilai"]] + [
        [f"Kabupaten {n}", "2024", str(n * 10)] for n in range(60)
    ]
    table = Block("", kind=BlockKind.TABLE, rows=rows, page=2)
    chunks = chunk_document([table], budget_tokens=60, overlap_tokens=10)
    assert len(chunks) > 3
    for chunk in chunks:
        assert chunk.text.splitlines()[0] == "Kabupaten | Tahun | Nilai"
        assert chunk.token_count <= 60
        assert (chunk.page_from, chunk.page_to) == (2, 2)
    body = [line for c in chunks for line in c.text.splitlines()[1:]]
    assert body == [" | ".join(r) for r in rows[1:]]


def test_chunk_confidence_is_the_minimum_of_its_blocks() -> None:
    blocks = [
        Block("Baris hasil OCR pertama.", ocr_confidence=0.93),
        Block("Baris hasil OCR kedua.", ocr_confidence=0.41),
        Block("Baris teks asli."),
    ]
    (chunk,) = chunk_document(blocks, budget_tokens=200, overlap_tokens=0)
    assert chunk.ocr_confidence == 0.41
    (plain,) = chunk_document([Block("Teks asli saja.")], budget_tokens=200, overlap_tokens=0)
    assert plain.ocr_confidence is None


def test_ordinals_run_from_zero_in_document_order() -> None:
    chunks = chunk_document([Block(_sentences("Urut", 40))], budget_tokens=80, overlap_tokens=0)
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
