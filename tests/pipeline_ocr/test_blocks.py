from ingestion.pipeline.base import BlockKind, OcrLine, OcrPage
from ingestion.pipeline.ocr.layout import ocr_page_to_blocks


def _page(*lines: tuple[str, float]) -> OcrPage:
    return OcrPage(page=3, lines=[OcrLine(text=t, confidence=c) for t, c in lines])


def test_legal_headings_become_heading_blocks_with_their_titles() -> None:
    blocks = ocr_page_to_blocks(
        _page(("BAB II", 0.9), ("KEWENANGAN", 0.8), ("Pasal 3", 0.95), ("Gubernur berwenang:", 0.9))
    )

    assert [(b.kind, b.level, b.text) for b in blocks] == [
        (BlockKind.HEADING, 1, "BAB II KEWENANGAN"),
        (BlockKind.HEADING, 4, "Pasal 3"),
        (BlockKind.PARAGRAPH, 0, "Gubernur berwenang:"),
    ]
    assert blocks[0].ocr_confidence == 0.8


def test_a_paragraph_joins_its_lines_and_keeps_its_weakest_confidence() -> None:
    blocks = ocr_page_to_blocks(
        _page(
            ("(1) Pemerintah Aceh menyelenggarakan", 0.9),
            ("urusan pemerintahan masing-", 0.4),
            ("masing daerah.", 0.95),
            ("(2) Ketentuan lebih lanjut", 0.99),
            ("diatur dengan Qanun.", 0.97),
        )
    )

    assert [b.text for b in blocks] == [
        "(1) Pemerintah Aceh menyelenggarakan urusan pemerintahan masing-masing daerah.",
        "(2) Ketentuan lebih lanjut diatur dengan Qanun.",
    ]
    assert [b.ocr_confidence for b in blocks] == [0.4, 0.97]
    assert all(b.page == 3 for b in blocks)


def test_an_item_marker_starts_a_new_paragraph_even_mid_sentence() -> None:
    blocks = ocr_page_to_blocks(
        _page(("Gubernur berwenang", 0.9), ("a. menetapkan kebijakan", 0.9))
    )

    assert [b.text for b in blocks] == ["Gubernur berwenang", "a. menetapkan kebijakan"]
