"""Born-digital PDF text, images as OCR pages, and page rendering for the OCR stage."""

from __future__ import annotations

import io
from pathlib import Path

import pymupdf
from PIL import Image

from ingestion.pipeline.parse import ParseLimits, parse, render_page_image, render_page_png
from tests.pipeline_parse.helpers import PARAGRAPH, scan_pixmap, text_page, write

LIMITS = ParseLimits()


def test_pdf_blocks_carry_their_page_numbers_in_reading_order(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for number in (1, 2):
        page = doc.new_page(width=595, height=842)
        page.insert_text((60, 400), f"Bawah halaman {number}", fontsize=11)
        page.insert_text((60, 100), f"Atas halaman {number}", fontsize=11)
        page.insert_text((290, 820), f"- {number} -", fontsize=9)
    parsed = parse(write(doc, tmp_path / "dua.pdf"), "pdf", LIMITS)
    assert [(b.page, b.text) for b in parsed.blocks] == [
        (1, "Atas halaman 1"),
        (1, "Bawah halaman 1"),
        (2, "Atas halaman 2"),
        (2, "Bawah halaman 2"),
    ]
    assert parsed.ocr_pages == []


def test_a_header_repeated_on_every_page_is_dropped(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for number in range(4):
        page = text_page(doc, f"Halaman {number}. " + PARAGRAPH * 2)
        page.insert_text((60, 30), "GUBERNUR ACEH", fontsize=9)
    parsed = parse(write(doc, tmp_path / "kop.pdf"), "pdf", LIMITS)
    assert not any("GUBERNUR ACEH" in b.text for b in parsed.blocks)
    assert sum("Pasal 5" in b.text for b in parsed.blocks) == 4


def test_an_image_file_is_one_page_waiting_for_ocr(tmp_path: Path) -> None:
    path = tmp_path / "foto"
    path.write_bytes(scan_pixmap(PARAGRAPH).tobytes("png"))
    parsed = parse(path, "image", LIMITS)
    assert (parsed.page_count, parsed.ocr_pages, parsed.blocks) == (1, [1], [])


def test_render_page_png_renders_the_requested_page_at_the_requested_dpi(tmp_path: Path) -> None:
    doc = pymupdf.open()
    text_page(doc, PARAGRAPH)
    doc.new_page(width=144, height=72)
    path = write(doc, tmp_path / "render.pdf")
    image = Image.open(io.BytesIO(render_page_png(path, 2, 100)))
    assert image.format == "PNG"
    assert image.size == (200, 100)


def test_render_page_png_lowers_resolution_to_respect_a_pixel_cap(tmp_path: Path) -> None:
    doc = pymupdf.open()
    text_page(doc, PARAGRAPH)
    path = write(doc, tmp_path / "big.pdf")
    image = Image.open(io.BytesIO(render_page_png(path, 1, 600, max_pixels=1_000_000)))
    assert image.size[0] * image.size[1] <= 1_000_000
    assert image.size[0] > 500


def test_a_rendered_page_never_has_a_pixel_more_than_the_cap_whatever_its_size(
    tmp_path: Path,
) -> None:
    """MuPDF rounds each side up: a page just at the cap came out a few pixels over it."""
    doc = pymupdf.open()
    for width, height in ((7000, 7000), (5001.3, 7777.7), (595, 842), (14400, 200)):
        doc.new_page(width=width, height=height)
    path = write(doc, tmp_path / "odd.pdf")
    for number in range(1, 5):
        image = render_page_image(path, number, 200, max_pixels=1_000_000)
        assert image.width * image.height <= 1_000_000
        assert image.width * image.height > 950_000, "no more than the rounding is given up"
