import io

import pymupdf
from PIL import Image, ImageDraw

from ingestion.pipeline.base import BlockKind
from ingestion.pipeline.ocr import ocr_stage

from .pages import LEGAL_LINES, engine, render_lines


def _pdf_of(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    doc = pymupdf.open()
    page = doc.new_page(width=image.width * 72 / 150, height=image.height * 72 / 150)
    page.insert_image(page.rect, stream=buf.getvalue())
    data = doc.tobytes()
    doc.close()
    return data


def test_a_scanned_pdf_page_becomes_blocks_with_confidence() -> None:
    result = ocr_stage(_pdf_of(render_lines(LEGAL_LINES)), "pdf", [1], engine=engine(), dpi=150)

    assert result.blocks[0].kind is BlockKind.HEADING
    assert result.blocks[0].text == "Pasal 7"
    assert "ayat (1) diatur lebih lanjut" in " ".join(b.text for b in result.blocks)
    assert result.min_confidence is not None and result.min_confidence >= 0.75
    assert not result.needs_review


def test_a_page_with_ink_but_nothing_readable_is_reported_unread() -> None:
    image = Image.new("RGB", (800, 600), "white")
    draw = ImageDraw.Draw(image)
    for i in range(12):
        draw.ellipse((40 + i * 55, 100 + (i % 3) * 120, 120 + i * 55, 260 + (i % 3) * 120), "black")

    result = ocr_stage(_pdf_of(image), "pdf", [1], engine=engine(), dpi=150)

    assert result.unread_pages == [1]
    assert result.needs_review
    assert result.min_confidence == 0.0
    assert "Halaman 1" in result.warnings[0]
    # The marker travels as a block, so the runner's chunk minimum sees the lost page too.
    assert ("[Halaman 1: tulisan tidak terbaca oleh OCR]", 0.0) in [
        (b.text, b.ocr_confidence) for b in result.blocks
    ]


def test_a_blank_page_is_not_reported_unread() -> None:
    result = ocr_stage(
        _pdf_of(Image.new("RGB", (800, 600), "white")), "pdf", [1], engine=engine(), dpi=150
    )

    assert result.unread_pages == []
    assert result.blocks == []
