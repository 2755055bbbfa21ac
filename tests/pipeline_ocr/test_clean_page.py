from .helpers import LEGAL_LINES, as_page, engine, render_lines

REVIEW_THRESHOLD = 0.75  # settings.OCR_REVIEW_THRESHOLD default


def test_a_clean_rendered_page_reads_back_in_order_with_high_confidence() -> None:
    page = engine().recognize(as_page(render_lines(LEGAL_LINES)))

    assert [line.text for line in page.lines] == list(LEGAL_LINES)
    assert min(line.confidence for line in page.lines) >= REVIEW_THRESHOLD
    assert all(line.raw_confidence is not None for line in page.lines)
