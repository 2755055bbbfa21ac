"""Plain text, Markdown, HTML and CSV: encodings, headings, boilerplate, dialects."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.pipeline.base import BlockKind
from ingestion.pipeline.parse import ParseLimits, parse
from tests.pipeline_parse.helpers import CORPUS_DOCS

LIMITS = ParseLimits()


def test_a_cp1252_text_file_is_decoded_after_utf8_fails(tmp_path: Path) -> None:
    path = tmp_path / "surat.txt"
    path.write_bytes("Tanggal “resmi” – café\n\nParagraf dua".encode("cp1252"))
    parsed = parse(path, "txt", LIMITS)
    assert [b.text for b in parsed.blocks] == ["Tanggal “resmi” – café", "Paragraf dua"]


def test_a_form_feed_starts_a_new_page_in_text(tmp_path: Path) -> None:
    path = tmp_path / "halaman.txt"
    path.write_text("satu\fdua", encoding="utf-8")
    parsed = parse(path, "txt", LIMITS)
    assert [(b.text, b.page) for b in parsed.blocks] == [("satu", 1), ("dua", 2)]
    assert parsed.page_count == 2


def test_markdown_headings_become_heading_blocks_with_levels(tmp_path: Path) -> None:
    path = tmp_path / "catatan.md"
    path.write_text(
        "# Judul\n\nPembuka.\n\n## Sub judul\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        encoding="utf-8",
    )
    parsed = parse(path, "md", LIMITS)
    assert [(b.kind, b.level, b.text) for b in parsed.blocks[:3]] == [
        (BlockKind.HEADING, 1, "Judul"),
        (BlockKind.PARAGRAPH, 0, "Pembuka."),
        (BlockKind.HEADING, 2, "Sub judul"),
    ]
    assert parsed.blocks[3].rows == [["a", "b"], ["1", "2"]]


def test_html_keeps_main_text_and_drops_scripts_and_navigation(tmp_path: Path) -> None:
    path = tmp_path / "halaman.html"
    path.write_text(
        "<html><head><style>p{}</style><script>var menu=1;</script></head><body>"
        "<header>Situs Pemerintah Aceh</header><nav>Beranda | Berita</nav>"
        "<h1>Pengumuman</h1><p>Isi <b>pengumuman</b> resmi.</p>"
        "<aside>Tautan terkait</aside><footer>Hak cipta</footer></body></html>",
        encoding="utf-8",
    )
    parsed = parse(path, "html", LIMITS)
    texts = [b.text for b in parsed.blocks]
    assert texts == ["Pengumuman", "Isi pengumuman resmi."]
    assert parsed.blocks[0].kind == BlockKind.HEADING


def test_a_semicolon_csv_in_cp1252_is_sniffed_into_a_table(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_bytes("kota;nilai;ket\nBanda Aceh;1,5;“naik”\nSabang;2,0;turun\n".encode("cp1252"))
    parsed = parse(path, "csv", LIMITS)
    (table,) = parsed.blocks
    assert table.kind == BlockKind.TABLE
    assert table.rows == [
        ["kota", "nilai", "ket"],
        ["Banda Aceh", "1,5", "“naik”"],
        ["Sabang", "2,0", "turun"],
    ]


def test_the_corpus_csv_and_html_parse_into_real_content() -> None:
    csv_path = CORPUS_DOCS / "aceh_pdrb_per_kapita_kabkota.csv"
    html_path = CORPUS_DOCS / "peraturan_go_id_listing_fragment.html"
    if not csv_path.exists() or not html_path.exists():
        pytest.skip("corpus absent")
    table = parse(csv_path, "csv", LIMITS).blocks[0]
    assert table.rows is not None and table.rows[0][:2] == [
        "bps_kode_provinsi",
        "bps_nama_provinsi",
    ]
    assert len(table.rows) > 100
    html = parse(html_path, "html", LIMITS)
    assert any(b.text == "Undang-Undang Nomor 1 Tahun 2024" for b in html.blocks)
