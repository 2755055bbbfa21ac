from statistics import mean

from .helpers import LEGAL_LINES, as_page, engine, render_lines, ruin

REVIEW_THRESHOLD = 0.75  # settings.OCR_REVIEW_THRESHOLD default


def test_a_page_buried_in_noise_reads_with_low_confidence() -> None:
    page = engine().recognize(as_page(ruin(render_lines(LEGAL_LINES))))

    confidences = [line.confidence for line in page.lines]
    assert confidences, "the ruined page should still yield (misread) lines"
    assert max(confidences) < REVIEW_THRESHOLD
    assert mean(confidences) < 0.3
