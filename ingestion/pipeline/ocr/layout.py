"""Page layout: an OCR page's lines grouped into heading and paragraph blocks."""

from __future__ import annotations

import re

from ingestion.pipeline.base import Block, BlockKind, OcrLine, OcrPage
from ingestion.pipeline.ocr.images import UNREAD_TEXT

# Legal structure: headings and the starts of items that begin a new paragraph.
_HEADINGS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"^BAB\s+[IVXLC]+\b", re.IGNORECASE), 1),
    (re.compile(r"^Bagian\s+(Ke)?\w+$", re.IGNORECASE), 2),
    (re.compile(r"^Paragraf\s+\w+$", re.IGNORECASE), 3),
    (re.compile(r"^Pasal\s+\d+[A-Z]?$", re.IGNORECASE), 4),
)
_ITEM_START = re.compile(r"^(\(\d{1,3}\)|\(?[a-z]\)|[a-z]\.|\d{1,3}\.)\s")
_SENTENCE_END = (".", ":", ";")


def _heading_level(text: str) -> int:
    for pattern, level in _HEADINGS:
        if pattern.match(text):
            return level
    return 0


def ocr_page_to_blocks(ocr_page: OcrPage) -> list[Block]:
    """Group a page's lines into heading and paragraph blocks.

    A paragraph ends at a line ending a sentence or clause, and a new one starts at a legal
    heading (``BAB``, ``Bagian``, ``Paragraf``, ``Pasal``) or an item marker (``(1)``,
    ``a.``, ``1.``). A block's confidence is the minimum of its lines', so a chunk (the min
    of its blocks) is never more trusted than its weakest line.
    """
    blocks: list[Block] = []
    current: list[OcrLine] = []

    def flush() -> None:
        if current:
            blocks.append(
                Block(
                    text=_join_lines([line.text for line in current]),
                    page=ocr_page.page,
                    ocr_confidence=min(line.confidence for line in current),
                )
            )
            current.clear()

    titled: Block | None = None  # a BAB/Bagian/Paragraf heading still waiting for its title
    for line in ocr_page.lines:
        text = line.text.strip()
        if not text:
            continue
        if text == UNREAD_TEXT.format(page=ocr_page.page):
            flush()
            blocks.append(Block(text=text, page=ocr_page.page, ocr_confidence=line.confidence))
            continue
        level = _heading_level(text)
        if level:
            flush()
            heading = Block(
                text=text,
                page=ocr_page.page,
                kind=BlockKind.HEADING,
                level=level,
                ocr_confidence=line.confidence,
            )
            blocks.append(heading)
            titled = heading if level < 4 else None
            continue
        if titled is not None and _is_title(text):
            # "BAB I" / "KETENTUAN UMUM" is one heading printed on two lines.
            titled.text = f"{titled.text} {text}"
            titled.ocr_confidence = min(titled.ocr_confidence or 1.0, line.confidence)
            titled = None
            continue
        titled = None
        if _ITEM_START.match(text):
            flush()
        current.append(line)
        if text.endswith(_SENTENCE_END):
            flush()
    flush()
    return blocks


def _is_title(text: str) -> bool:
    return (
        len(text.split()) <= 10
        and not text.endswith(_SENTENCE_END)
        and not _ITEM_START.match(text)
        and text[:1].isupper()
    )


def _join_lines(lines: list[str]) -> str:
    out = ""
    for line in (line.strip() for line in lines):
        if not out:
            out = line
        elif out.endswith("-"):
            # Keep the hyphen: Indonesian breaks reduplications ("masing-/masing") far
            # more often than it hyphenates syllables in typeset legal text.
            out += line
        else:
            out += " " + line
    return out
