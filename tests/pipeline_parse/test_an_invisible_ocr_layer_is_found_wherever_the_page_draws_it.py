"""The hidden-OCR-layer check looks at the first character MuPDF extracted, then at the
head of the content stream, then at all of it: a layer found by any of them is used."""

from __future__ import annotations

import re

import pymupdf

from ingestion.pipeline.parse import decide_page_ocr
from ingestion.pipeline.parsers.pdf import CONTENT_HEAD_BYTES
from tests.pipeline_parse.helpers import PARAGRAPH, scan_page

LAYER_RECT = pymupdf.Rect(60, 60, 535, 760)


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


def test_a_layer_inside_a_form_xobject_is_found() -> None:
    layer = pymupdf.open()
    layer.new_page(width=595, height=842).insert_textbox(LAYER_RECT, PARAGRAPH * 5, render_mode=3)
    doc = pymupdf.open()
    page = scan_page(doc, PARAGRAPH * 5)
    page.show_pdf_page(page.rect, layer, 0)  # the layer becomes a Form XObject
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
