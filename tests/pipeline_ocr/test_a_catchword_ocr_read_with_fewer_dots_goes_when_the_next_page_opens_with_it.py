"""A scan's catchword whose dots OCR thinned ("(3) Tanda." for "(3) Tanda . . .") is page
furniture when the next page opens with its words; a short line that the next page does
not echo stays."""

from __future__ import annotations

from ingestion.pipeline.base import OcrLine, OcrPage, PageFrame
from ingestion.pipeline.furniture import tidy_pages
from ingestion.pipeline.ocr.layout import ocr_page_to_blocks

FRAME = PageFrame(1200, 1700, "px", 200)


def _page(number: int, *lines: tuple[str, tuple[float, float, float, float]]) -> OcrPage:
    return OcrPage(
        page=number,
        lines=[OcrLine(text=t, confidence=0.95, box=box) for t, box in lines],
        frame=FRAME,
    )


def _texts(first_page_last: str, second_page_first: str) -> list[str]:
    pages = [
        ocr_page_to_blocks(
            _page(
                1,
                ("(2) Surat Teguran dikirim dengan pos tercatat", (230, 1200, 1100, 1240)),
                ("sesuai dengan ketentuan Menteri Keuangan.", (230, 1250, 900, 1290)),
                (first_page_last, (880, 1450, 1100, 1490)),
            )
        ),
        ocr_page_to_blocks(
            _page(
                2,
                ("PRESIDEN REPUBLIK INDONESIA", (400, 40, 800, 80)),
                (second_page_first, (230, 300, 1100, 340)),
            )
        ),
    ]
    tidy_pages(pages)
    # One page's running head is not yet repeated furniture; the catchword looks past it.
    return [b.text for page in pages for b in page if not b.text.startswith("PRESIDEN")]


def test_a_catchword_read_with_one_dot_goes() -> None:
    texts = _texts("(3) Tanda.", "(3) Tanda bukti dan tanggal pengiriman surat.")
    assert texts == [
        "(2) Surat Teguran dikirim dengan pos tercatat sesuai dengan ketentuan Menteri Keuangan.",
        "(3) Tanda bukti dan tanggal pengiriman surat.",
    ]


def test_a_catchword_read_with_two_dots_in_mid_sentence_goes() -> None:
    texts = _texts("sebagaimana..", "sebagaimana dimaksud pada ayat (1).")
    assert "sebagaimana.." not in " ".join(texts)


def test_a_short_line_the_next_page_does_not_open_with_stays() -> None:
    texts = _texts("ttd.", "JOKO WIDODO")
    assert "ttd." in texts
