"""Plain text and Markdown.

Encoding: UTF-8 (with or without BOM), then cp1252, then latin-1 — latin-1 decodes any
byte string, so the cascade always ends with text. A form feed starts a new page.
"""

from __future__ import annotations

import re
from pathlib import Path

from ingestion.legal.structure import ITEM_NUMBER
from ingestion.pipeline.base import Block, BlockKind, ParsedDocument
from ingestion.pipeline.furniture import without_copy_stamp

MD_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
MD_TABLE_RULE_RE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")
# A list item whose text opens with its own number ("- (1) Setiap …", "- a. NIB; dan",
# OCR's unclosed "- (21 Upah …"): the bullet is the converter's, the number is the document's.
MD_NUMBERED_ITEM_RE = re.compile(rf"^\s*[-*+]\s+(?=(?:{ITEM_NUMBER}|\(\d{{1,3}})(?:\s|$))")


def decode_text(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _paragraphs(text: str, page: int) -> list[Block]:
    blocks = []
    for chunk in re.split(r"\n\s*\n", text):
        lines = (without_copy_stamp(line).rstrip() for line in chunk.strip("\n").splitlines())
        cleaned = "\n".join(lines).strip()
        if cleaned:
            blocks.append(Block(text=cleaned, page=page))
    return blocks


def parse_txt(path: Path) -> ParsedDocument:
    text = decode_text(path.read_bytes()).replace("\r\n", "\n").replace("\r", "\n")
    pages = text.split("\f")
    blocks = [b for number, page in enumerate(pages, 1) for b in _paragraphs(page, number)]
    return ParsedDocument(format="txt", page_count=len(pages), blocks=blocks)


def _split_row(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _flush(lines: list[str], page: int, out: list[Block]) -> None:
    out.extend(_paragraphs("\n".join(lines), page))
    lines.clear()


def _md_page(text: str, page: int) -> list[Block]:
    out: list[Block] = []
    pending: list[str] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        heading = MD_HEADING_RE.match(line)
        if heading:
            _flush(pending, page, out)
            title = without_copy_stamp(heading.group(2)).strip()
            if title:
                out.append(
                    Block(title, page=page, kind=BlockKind.HEADING, level=len(heading.group(1)))
                )
            index += 1
            continue
        nxt = lines[index + 1] if index + 1 < len(lines) else ""
        if "|" in line and MD_TABLE_RULE_RE.match(nxt.strip()):
            _flush(pending, page, out)
            rows = [_split_row(line)]
            index += 2
            while index < len(lines) and "|" in lines[index] and lines[index].strip():
                rows.append(_split_row(lines[index]))
                index += 1
            rendered = "\n".join(" | ".join(row) for row in rows)
            out.append(Block(rendered, page=page, kind=BlockKind.TABLE, rows=rows))
            continue
        pending.append(MD_NUMBERED_ITEM_RE.sub("", line, count=1))
        index += 1
    _flush(pending, page, out)
    return out


def parse_md(path: Path) -> ParsedDocument:
    text = decode_text(path.read_bytes()).replace("\r\n", "\n").replace("\r", "\n")
    pages = text.split("\f")
    blocks = [b for number, page in enumerate(pages, 1) for b in _md_page(page, number)]
    return ParsedDocument(format="md", page_count=len(pages), blocks=blocks)
