"""The page-level OCR decision on generated PDFs, one signal per test."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from ingestion.pipeline.parse import ParseLimits, decide_page_ocr, parse
from tests.pipeline_parse.helpers import (
    PARAGRAPH,
    mosaic_scan_page,
    scan_page,
    scan_pixmap,
    text_page,
    write,
)

LIMITS = ParseLimits()


def test_a_typed_page_does_not_need_ocr() -> None:
    doc = pymupdf.open()
    text_page(doc, PARAGRAPH * 5)
    assert decide_page_ocr(doc[0]).needs_ocr is False


def test_an_image_only_scan_needs_ocr() -> None:
    doc = pymupdf.open()
    scan_page(doc, PARAGRAPH * 5)
    decision = decide_page_ocr(doc[0])
    assert decision.needs_ocr is True
    assert decision.image_coverage > 0.9


def test_a_scan_with_a_footer_line_still_needs_ocr() -> None:
    doc = pymupdf.open()
    page = scan_page(doc, PARAGRAPH * 5)
    page.insert_text((60, 830), "jdih.acehprov.go.id", fontsize=8)
    decision = decide_page_ocr(doc[0])
    assert decision.needs_ocr is True
    assert decision.visible_chars > 0


def test_a_full_page_watermark_over_real_text_is_not_ocred() -> None:
    doc = pymupdf.open()
    page = text_page(doc, PARAGRAPH * 6)
    page.insert_image(page.rect, pixmap=scan_pixmap("DRAFT " * 40), overlay=True)
    decision = decide_page_ocr(doc[0])
    assert decision.image_coverage > 0.9
    assert decision.needs_ocr is False


def test_a_mosaic_of_small_image_tiles_counts_as_a_scan() -> None:
    doc = pymupdf.open()
    mosaic_scan_page(doc, PARAGRAPH * 5, tiles=4)
    decision = decide_page_ocr(doc[0])
    assert decision.needs_ocr is True
    assert 0.9 < decision.image_coverage <= 1.0


def test_a_scan_with_an_invisible_ocr_layer_uses_that_layer() -> None:
    doc = pymupdf.open()
    page = scan_page(doc, PARAGRAPH * 5)
    page.insert_textbox(pymupdf.Rect(60, 60, 535, 760), PARAGRAPH * 5, render_mode=3)
    decision = decide_page_ocr(doc[0])
    assert decision.needs_ocr is False
    assert decision.reason == "hidden_text_layer"


def test_a_small_logo_on_a_typed_page_does_not_trigger_ocr() -> None:
    doc = pymupdf.open()
    page = text_page(doc, PARAGRAPH * 4)
    page.insert_image(pymupdf.Rect(20, 20, 80, 80), pixmap=scan_pixmap("LOGO"))
    assert decide_page_ocr(doc[0]).needs_ocr is False


def test_a_mixed_pdf_lists_only_its_scanned_pages_and_keeps_no_text_from_them(
    tmp_path: Path,
) -> None:
    doc = pymupdf.open()
    text_page(doc, PARAGRAPH * 3)
    page = scan_page(doc, PARAGRAPH * 3)
    page.insert_text((60, 830), "footer-halaman-dua", fontsize=8)
    text_page(doc, PARAGRAPH * 3)
    parsed = parse(write(doc, tmp_path / "mixed.pdf"), "pdf", LIMITS)
    assert parsed.ocr_pages == [2]
    assert {b.page for b in parsed.blocks} == {1, 3}
    assert not any("footer-halaman-dua" in b.text for b in parsed.blocks)
