"""An OCR'd page reads as it was printed: an item marker detected apart from its text goes
back on its row, a capital read for a huruf in sequence is small again, and a running head,
folio or catchword is never part of a paragraph."""

from __future__ import annotations

from ingestion.pipeline.base import OcrLine, OcrPage, PageFrame
from ingestion.pipeline.furniture import tidy_pages
from ingestion.pipeline.ocr.layout import ocr_page_to_blocks

FRAME = PageFrame(1200, 1700, "px", 200)
OPENINGS = {
    1: "Setiap orang yang dengan sengaja menyebarkan",
    2: "informasi elektronik yang memuat penghinaan dan",
    3: "pencemaran nama baik dipidana",
}


def _page(number: int, *lines: tuple[str, tuple[float, float, float, float]]) -> OcrPage:
    return OcrPage(
        page=number,
        lines=[OcrLine(text=t, confidence=0.95, box=box) for t, box in lines],
        frame=FRAME,
    )


def test_a_marker_detected_after_its_text_goes_back_before_it() -> None:
    blocks = ocr_page_to_blocks(
        _page(
            1,
            ("Hakim konstitusi dilarang merangkap menjadi:", (230, 400, 900, 440)),
            ("pejabat negara lainnya;", (295, 450, 620, 490)),
            ("a.", (230, 454, 297, 490)),
            ("b. anggota partai politik;", (222, 495, 608, 545)),
        )
    )
    assert [b.text for b in blocks] == [
        "Hakim konstitusi dilarang merangkap menjadi:",
        "a. pejabat negara lainnya;",
        "b. anggota partai politik;",
    ]


def test_a_capital_read_for_the_next_huruf_is_small_and_a_glued_marker_gets_its_space() -> None:
    blocks = ocr_page_to_blocks(
        _page(
            1,
            ("a.permohonan yang terdaftar;", (230, 400, 900, 440)),
            ("b. pengelolaan keuangan;", (230, 450, 900, 490)),
            ("C. penerbitan laporan.", (230, 500, 900, 540)),
        )
    )
    assert [b.text[:3] for b in blocks] == ["a. ", "b. ", "c. "]


def test_a_capital_marker_before_a_word_in_lower_case_is_small_but_an_initial_stays() -> None:
    blocks = ocr_page_to_blocks(
        _page(
            1,
            ("a. terhadap Wajib Pajak dilakukan penyidikan;", (230, 400, 900, 440)),
            ("C. terlambat menyampaikan Surat Pemberitahuan;", (230, 450, 900, 490)),
            ("F. Wijaya menandatangani.", (230, 500, 900, 540)),
        )
    )
    assert [b.text[:3] for b in blocks] == ["a. ", "c. ", "F. "]


def test_a_scans_head_folio_and_catchword_go_and_its_sentence_runs_on() -> None:
    head = ("PRESIDEN REPUBLIK INDONESIA", (400, 40, 800, 80))
    pages = [
        ocr_page_to_blocks(
            _page(
                number,
                head,
                (f"-{number}-", (580, 100, 620, 140)),
                (OPENINGS[number], (230, 800, 1100, 840)),
                ("Pasal 5 . . .", (900, 1450, 1100, 1490)),
            )
        )
        for number in (1, 2, 3)
    ]
    tidy_pages(pages)
    texts = [b.text for page in pages for b in page]
    assert not any("PRESIDEN" in t or t.startswith("-") or ". . ." in t for t in texts)
    assert [b.joins_previous for page in pages for b in page] == [False, True, True]
