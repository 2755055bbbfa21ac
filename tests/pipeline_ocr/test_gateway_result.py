from ingestion.pipeline.ocr.confidence import line_confidence
from ingestion.pipeline.ocr.gateway import to_ocr_page

from .helpers import gibberish_line


def test_gateway_confidences_are_recalibrated_and_kept_as_raw() -> None:
    item = {
        "page": 2,
        "lines": [
            {"text": "Pasal 5", "confidence": 0.99},
            {"text": gibberish_line(3), "confidence": 1.0},
            {"text": "  ", "confidence": 0.5},
        ],
    }

    page = to_ocr_page(2, item)

    assert [line.text for line in page.lines] == ["Pasal 5", gibberish_line(3)]
    assert [line.raw_confidence for line in page.lines] == [0.99, 1.0]
    assert page.lines[0].confidence == line_confidence("Pasal 5", 0.99)
    assert page.lines[1].confidence < 0.2


def test_a_page_missing_from_the_gateway_result_reads_as_empty() -> None:
    assert to_ocr_page(4, None).lines == []
