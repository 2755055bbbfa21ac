"""Page layout: an OCR page's lines grouped into heading and paragraph blocks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ingestion.pipeline.base import Block, BlockKind, Box, OcrLine, OcrPage
from ingestion.pipeline.furniture import CATCHWORD_MAX_WORDS, MARGIN_ZONE, THIN_CATCHWORD_RE
from ingestion.pipeline.ocr.images import UNREAD_TEXT
from ingestion.pipeline.reflow import join_broken, same_row

# Legal structure: headings and the starts of items that begin a new paragraph.
_HEADINGS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"^BAB\s+[IVXLC]+\b", re.IGNORECASE), 1),
    (re.compile(r"^Bagian\s+(Ke)?\w+$", re.IGNORECASE), 2),
    (re.compile(r"^Paragraf\s+\w+$", re.IGNORECASE), 3),
    (re.compile(r"^Pasal\s+(?:\d+[A-Z]?|[IVX]{1,4})$", re.IGNORECASE), 4),
)
_ITEM_START = re.compile(r"^(\(\d{1,3}\)|\(?[a-z]\)|[a-z]\.|\d{1,3}\.)\s")
_SENTENCE_END = (".", ":", ";")
_CLOSING_QUOTES = "\"”’'"
# A huruf marker OCR read in capitals ("C." between "b." and "d."), or glued to its text.
_CAPITAL_ITEM_RE = re.compile(r"^(?P<letter>[A-Z])\.\s")
_GLUED_ITEM_RE = re.compile(r"^(?P<marker>[a-z]\.|\(\d{1,3}\))(?=[A-Za-z])")


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
    letter = ""  # the last huruf marker read on the page
    for line in _rows(ocr_page.lines):
        text, letter = _item_marker(line.text.strip(), letter)
        line.text = text
        if not text:
            continue
        if _in_margin(line, ocr_page) or _catchword_like(line, ocr_page):
            # A running head, folio or catchword is never part of a paragraph of the text.
            flush()
            blocks.append(block(text, [line], ocr_confidence=line.confidence))
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
        if text.rstrip(_CLOSING_QUOTES).endswith(_SENTENCE_END):
            flush()
    flush()
    return blocks


def _rows(lines: Sequence[OcrLine]) -> list[OcrLine]:
    """The detector's lines put back on the printed rows: an item's marker ("a.", "(2)")
    is often detected apart from its text, and may come after it."""
    rows: list[list[OcrLine]] = []
    for line in lines:
        row = rows[-1] if rows else None
        if row and line.box and row[0].box and same_row(row[0].box, line.box):
            row.append(line)
        else:
            rows.append([line])
    merged = []
    for row in rows:
        if len(row) == 1:
            merged.append(row[0])
            continue
        row.sort(key=lambda line: line.box[0] if line.box else 0.0)
        merged.append(
            OcrLine(
                " ".join(line.text.strip() for line in row),
                min(line.confidence for line in row),
                None,
                union_box(row),
            )
        )
    return merged


def _item_marker(text: str, last: str) -> tuple[str, str]:
    """The line with its huruf marker as printed: "C." read after "b.", or before a word in
    lower case ("C. tidak menyampaikan"), is "c."; "a.permohonan" is "a. permohonan"; and
    the page's last huruf letter."""
    capital = _CAPITAL_ITEM_RE.match(text)
    in_sequence = capital and last and ord(capital.group("letter").lower()) == ord(last) + 1
    # A huruf's text opens in lower case; a capital initial ("C. Wijaya") is followed by a name.
    before_lower = capital and text[capital.end() : capital.end() + 1].islower()
    if capital and (in_sequence or before_lower):
        text = capital.group("letter").lower() + text[1:]
    text = _GLUED_ITEM_RE.sub(r"\g<marker> ", text)
    item = re.match(r"^([a-z])\.\s", text)
    return text, item.group(1) if item else last


def _catchword_like(line: OcrLine, page: OcrPage) -> bool:
    """A few words and dots right of the page's middle: a catchword, never joined to the
    paragraph above it (the page furniture pass drops it when it ends the page)."""
    if line.box is None or page.frame is None:
        return False
    short = len(line.text.split()) <= CATCHWORD_MAX_WORDS
    return (
        short and line.box[0] > 0.4 * page.frame.width and bool(THIN_CATCHWORD_RE.search(line.text))
    )


def _in_margin(line: OcrLine, page: OcrPage) -> bool:
    if line.box is None or page.frame is None:
        return False
    height = page.frame.height
    return line.box[3] <= MARGIN_ZONE * height or line.box[1] >= (1 - MARGIN_ZONE) * height


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
