"""HTML main text with selectolax (lexbor): headings, paragraphs and tables in order.

Boilerplate containers (nav, header, footer, aside) and non-content elements are removed
before the walk, so menus and cookie banners never reach the index.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from charset_normalizer import from_bytes
from selectolax.lexbor import LexborHTMLParser

from ingestion.pipeline.base import Block, BlockKind, ParsedDocument

DROP_TAGS = (
    "script",
    "style",
    "noscript",
    "template",
    "nav",
    "header",
    "footer",
    "aside",
    "svg",
    "iframe",
    "object",
    "button",
    "select",
)
BLOCK_TAGS = frozenset(
    "p div section article main li ul ol dl dd dt blockquote pre figure figcaption address "
    "tr td th br hr form fieldset details summary body html".split()
)
HEADING_TAGS = {f"h{n}": n for n in range(1, 7)}
MAX_DEPTH = 300  # deeper nesting is flattened: Python recursion must never overflow
_SPACE_RE = re.compile(r"[ \t\r\f\v\u00a0]+")
_CHARSET_RE = re.compile(rb"<meta[^>]+charset=[\"']?([A-Za-z0-9_-]+)", re.IGNORECASE)


def decode_html(data: bytes) -> str:
    declared = _CHARSET_RE.search(data[:4096])
    candidates = ["utf-8"]
    if declared:
        candidates.insert(0, declared.group(1).decode("ascii"))
    for encoding in candidates:
        try:
            return data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
    best = from_bytes(data[:65536]).best()
    return data.decode(best.encoding if best else "cp1252", errors="replace")


def _norm(text: str) -> str:
    return _SPACE_RE.sub(" ", text).strip()


class _Walker:
    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.buffer: list[str] = []

    def flush(self) -> None:
        text = _norm(" ".join(self.buffer))
        self.buffer.clear()
        if text:
            self.blocks.append(Block(text=text))

    def table(self, node: Any) -> None:
        rows = []
        for tr in node.css("tr"):
            cells = [_norm(cell.text(separator=" ")) for cell in tr.css("th, td")]
            if any(cells):
                rows.append(cells)
        if rows:
            rendered = "\n".join(" | ".join(row) for row in rows)
            self.blocks.append(Block(rendered, kind=BlockKind.TABLE, rows=rows))

    def walk(self, node: Any, depth: int = 0) -> None:
        for child in node.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                self.buffer.append(child.text(deep=False) or "")
            elif tag in HEADING_TAGS:
                self.flush()
                title = _norm(child.text(separator=" "))
                if title:
                    self.blocks.append(
                        Block(title, kind=BlockKind.HEADING, level=HEADING_TAGS[tag])
                    )
            elif tag == "table":
                self.flush()
                self.table(child)
            elif depth >= MAX_DEPTH:
                self.buffer.append(child.text(separator=" ") or "")
            elif tag in BLOCK_TAGS:
                self.flush()
                self.walk(child, depth + 1)
                self.flush()
            elif tag is not None and not tag.startswith("-"):
                self.walk(child, depth + 1)


def html_blocks(markup: str) -> list[Block]:
    tree = LexborHTMLParser(markup)
    for tag in DROP_TAGS:
        for node in tree.css(tag):
            node.decompose()
    root = tree.css_first("main") or tree.css_first("article") or tree.body or tree.root
    walker = _Walker()
    if root is not None:
        walker.walk(root)
        walker.flush()
    return walker.blocks


def parse_html(path: Path) -> ParsedDocument:
    blocks = html_blocks(decode_html(path.read_bytes()))
    return ParsedDocument(format="html", page_count=1, blocks=blocks)
