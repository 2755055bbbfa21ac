"""An OCR line keeps its box in page pixels (at the page's dpi), upright or rotated."""

from __future__ import annotations

from ingestion.pipeline.ocr.gateway import to_ocr_page
from ingestion.pipeline.ocr.layout import ocr_page_to_blocks

from .helpers import LEGAL_LINES, as_page, engine, render_lines

DPI = 150
PX_PER_PT = DPI / 72


def _expected_top(index: int) -> float:
    # render_lines puts line i's baseline at y = 34 + 22 i points; a 12 pt line starts ~9 pt
    # above its baseline.
    return (34 + 22 * index - 9) * PX_PER_PT


def test_each_line_has_a_box_where_it_was_printed() -> None:
    image = render_lines(LEGAL_LINES, dpi=DPI)
    page = engine().recognize(as_page(image))

    assert page.frame is not None
    assert (page.frame.width, page.frame.height, page.frame.unit, page.frame.dpi) == (
        image.width,
        image.height,
        "px",
        DPI,
    )
    for index, line in enumerate(page.lines):
        assert line.box is not None
        x0, y0, x1, y1 = line.box
        assert 0 <= x0 < x1 <= image.width and 0 <= y0 < y1 <= image.height
        assert abs(x0 - 30 * PX_PER_PT) < 12, line.text  # the text starts 30 pt from the left
        assert abs(y0 - _expected_top(index)) < 12, line.text


def test_an_upside_down_page_reports_boxes_in_the_upright_page() -> None:
    image = render_lines(LEGAL_LINES, dpi=DPI)
    upright = engine().recognize(as_page(image))
    turned = engine().recognize(as_page(image.rotate(180)))

    by_text = {line.text: line.box for line in turned.lines}
    for line in upright.lines:
        assert line.box is not None
        box = by_text.get(line.text)
        assert box is not None, line.text
        # Seen upside down, the line sits at the mirrored place of the upright page.
        w, h = image.width, image.height
        assert abs((w - box[2]) - line.box[0]) < 12
        assert abs((h - box[3]) - line.box[1]) < 12


def test_a_block_is_the_union_of_its_lines_and_keeps_them() -> None:
    page = engine().recognize(as_page(render_lines(LEGAL_LINES, dpi=DPI)))
    blocks = ocr_page_to_blocks(page)
    body = next(b for b in blocks if b.text.startswith("(1)"))
    assert body.lines is not None and len(body.lines) == 2
    boxes = [line.box for line in body.lines if line.box is not None]
    assert body.bbox == (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
    assert body.frame == page.frame


def test_gateway_lines_keep_an_optional_box() -> None:
    page = to_ocr_page(
        1,
        {
            "page": 1,
            "lines": [
                {"text": "Pasal 1", "confidence": 0.97, "box": [10, 20, 110, 44]},
                {"text": "tanpa kotak", "confidence": 0.9},
                {"text": "kotak rusak", "confidence": 0.9, "box": [1, "x"]},
            ],
        },
    )
    assert [line.box for line in page.lines] == [(10.0, 20.0, 110.0, 44.0), None, None]
