"""Page layout: an OCR page's lines grouped into heading and paragraph blocks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ingestion.pipeline.base import Block, BlockKind, Box, OcrLine, OcrPage
from ingestion.pipeline.ocr.images import UNREAD_TEXT
from ingestion.pipeline.reflow import join_broken

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

    def block(text: str, lines: list[OcrLine], **fields: Any) -> Block:
        return Block(
            text=text,
            page=ocr_page.page,
            bbox=union_box(lines),
            frame=ocr_page.frame,
            lines=list(lines),
            **fields,
        )

    def flush() -> None:
        if current:
            text = _join_lines([line.text for line in current])
            blocks.append(block(text, current, ocr_confidence=min(c.confidence for c in current)))
            current.clear()

    titled: Block | None = None  # a BAB/Bagian/Paragraf heading still waiting for its title
    for line in ocr_page.lines:
        text = line.text.strip()
        if not text:
            continue
        if text == UNREAD_TEXT.format(page=ocr_page.page):
            flush()
            blocks.append(block(text, [line], ocr_confidence=line.confidence))
            continue
        level = _heading_level(text)
        if level:
            flush()
            heading = block(
                text, [line], kind=BlockKind.HEADING, level=level, ocr_confidence=line.confidence
            )
            blocks.append(heading)
            titled = heading if level < 4 else None
            continue
        if titled is not None and _is_title(text):
            # "BAB I" / "KETENTUAN UMUM" is one heading printed on two lines.
            titled.text = f"{titled.text} {text}"
            titled.ocr_confidence = min(titled.ocr_confidence or 1.0, line.confidence)
            titled.lines = [*(titled.lines or []), line]
            titled.bbox = union_box(titled.lines)
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


def union_box(lines: Sequence[OcrLine]) -> Box | None:
    """The smallest box around the lines that have one."""
    boxes = [line.box for line in lines if line.box is not None]
    if not boxes:
        return None
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _is_title(text: str) -> bool:
    return (
        len(text.split()) <= 10
        and not text.endswith(_SENTENCE_END)
        and not _ITEM_START.match(text)
        and text[:1].isupper()
    )


def _join_lines(lines: list[str]) -> str:
    out = ""
    for line in lines:
        out = join_broken(out, line)
    return out
