"""The hidden-OCR-layer check looks at the first character MuPDF extracted, then at the
head of the content stream, then at all of it: a layer found by any of them is used, and
judged by the top of the page whatever order it was drawn in."""

from __future__ import annotations

import re

import pymupdf

from ingestion.pipeline.parse import OcrDecision, decide_page_ocr
from ingestion.pipeline.parsers.pdf import CONTENT_HEAD_BYTES
from tests.pipeline_parse.helpers import PARAGRAPH, scan_page

LAYER_RECT = pymupdf.Rect(60, 60, 535, 760)
GARBLED = "lJ(o !o xq7 0)fr b0oL0 tJ)NoN ;Tq~ " * 8


def _hidden_mode_offset(page: pymupdf.Page) -> int:
    match = re.search(rb"3\s+Tr\b", page.read_contents())
    assert match is not None
    return match.start()


def test_a_layer_drawn_after_a_visible_footer_and_a_long_drawing_is_found() -> None:
    doc = pymupdf.open()
    page = scan_page(doc, PARAGRAPH * 5)
    page.insert_text((60, 830), "jdih.acehprov.go.id", fontsize=8)
    for y in range(0, 800, 2):  # a border of rules pushes the layer past the stream's head
        page.draw_line((20, y), (30, y + 1), width=0.2)
    page.insert_textbox(LAYER_RECT, PARAGRAPH * 5, render_mode=3)
    assert _hidden_mode_offset(page) > CONTENT_HEAD_BYTES
    decision = decide_page_ocr(page)
    assert decision.reason == "hidden_text_layer"
    assert decision.needs_ocr is False
    assert decision.invisible_chars >= decision.visible_chars


def _scan_with_a_form_xobject_layer(doc: pymupdf.Document) -> pymupdf.Page:
    layer = pymupdf.open()
    layer.new_page(width=595, height=842).insert_textbox(LAYER_RECT, PARAGRAPH * 5, render_mode=3)
    page = scan_page(doc, PARAGRAPH * 5)
    page.show_pdf_page(page.rect, layer, 0)  # the layer becomes a Form XObject, drawn first
    return page


def _scan_with_a_layer_drawn_bottom_first(bottom: str, top: str) -> OcrDecision:
    doc = pymupdf.open()
    page = scan_page(doc, PARAGRAPH * 5)
    page.insert_textbox(pymupdf.Rect(60, 500, 535, 800), bottom, render_mode=3)
    page.insert_textbox(pymupdf.Rect(60, 60, 535, 400), top, render_mode=3)
    return decide_page_ocr(page)


def test_a_layer_inside_a_form_xobject_is_found() -> None:
    page = _scan_with_a_form_xobject_layer(pymupdf.open())
    assert not re.search(rb"3\s+Tr\b", page.read_contents())
    decision = decide_page_ocr(page)
    assert decision.reason == "hidden_text_layer"
    assert decision.needs_ocr is False


def test_a_visible_text_layer_over_a_scan_is_not_taken_for_a_hidden_one() -> None:
    doc = pymupdf.open()
    page = scan_page(doc, PARAGRAPH * 5)
    page.insert_textbox(LAYER_RECT, PARAGRAPH * 5)
    decision = decide_page_ocr(page)
    assert decision.reason == "text_over_image"
    assert decision.invisible_chars == 0


def test_a_layer_whose_first_character_is_invisible_counts_all_the_page_text_as_hidden() -> None:
    page = _scan_with_a_form_xobject_layer(pymupdf.open())
    page.insert_text((60, 830), "jdih.acehprov.go.id " * 3, fontsize=8)  # visible, after it
    decision = decide_page_ocr(page)
    assert decision.reason == "hidden_text_layer"
    assert decision.visible_chars == 0  # as when a page's own stream sets 3 Tr anywhere


def test_a_layer_drawn_bottom_first_is_judged_by_the_top_of_the_page() -> None:
    decision = _scan_with_a_layer_drawn_bottom_first(bottom=GARBLED, top=PARAGRAPH * 3)
    assert decision.reason == "hidden_text_layer"
    assert decision.needs_ocr is False


def test_a_garbled_layer_at_the_top_of_the_page_sends_it_to_ocr() -> None:
    decision = _scan_with_a_layer_drawn_bottom_first(bottom=PARAGRAPH * 3, top=GARBLED)
    assert decision.reason == "garbled_hidden_layer"
    assert decision.needs_ocr is True
