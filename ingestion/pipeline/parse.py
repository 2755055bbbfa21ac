"""Parse stage: turn a fetched file into text blocks in reading order.

``parse(path, fmt, limits)`` dispatches on the resolved format string, never on the file
name (storage keys may lack extensions). Every failure a person can act on is a
PermanentError with an Indonesian reason; nothing a hostile file does escapes as a crash.
Pages listed in ``ParsedDocument.ocr_pages`` carry no text blocks: the OCR stage fills them,
reading each page through :func:`render_page_image` (the review UI draws pages with
:func:`render_page_png`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from ingestion.errors import PermanentError
from ingestion.pipeline.base import ParsedDocument
from ingestion.pipeline.parsers.csv_ import parse_csv
from ingestion.pipeline.parsers.html import parse_html
from ingestion.pipeline.parsers.image import parse_image
from ingestion.pipeline.parsers.office import parse_docx, parse_pptx, parse_xlsx
from ingestion.pipeline.parsers.pdf import (
    OcrDecision,
    decide_page_ocr,
    page_needs_ocr,
    parse_pdf,
    render_page_image,
    render_page_png,
)
from ingestion.pipeline.parsers.safety import ParseLimits, library_guard
from ingestion.pipeline.parsers.text import parse_md, parse_txt

__all__ = [
    "SUPPORTED_FORMATS",
    "OcrDecision",
    "ParseLimits",
    "decide_page_ocr",
    "page_needs_ocr",
    "parse",
    "render_page_image",
    "render_page_png",
]

log = logging.getLogger(__name__)

_PARSERS: dict[str, Callable[[Path, ParseLimits], ParsedDocument]] = {
    "pdf": parse_pdf,
    "docx": parse_docx,
    "xlsx": parse_xlsx,
    "pptx": parse_pptx,
    "image": parse_image,
    "txt": lambda path, _limits: parse_txt(path),
    "md": lambda path, _limits: parse_md(path),
    "html": lambda path, _limits: parse_html(path),
    "csv": lambda path, _limits: parse_csv(path),
}
SUPPORTED_FORMATS = frozenset(_PARSERS)

_READABLE = {
    "pdf": "PDF rusak / tidak dapat dibaca",
    "docx": "Berkas DOCX rusak",
    "xlsx": "Berkas XLSX rusak",
    "pptx": "Berkas PPTX rusak",
    "image": "Gambar rusak / tidak dapat dibaca",
}


def parse(path: Path, fmt: str, limits: ParseLimits | None = None) -> ParsedDocument:
    fmt = fmt.strip().lower()
    parser = _PARSERS.get(fmt)
    if parser is None:
        raise PermanentError(f"Format berkas tidak didukung: {fmt or '(kosong)'}", code="format")
    limits = limits or ParseLimits.from_settings()
    started = time.perf_counter()
    with library_guard(_READABLE.get(fmt, f"Berkas {fmt.upper()} rusak / tidak dapat dibaca")):
        if not path.is_file():
            raise PermanentError("Berkas tidak ditemukan untuk diurai", code="missing")
        document = parser(path, limits)
    log.info(
        "parsed format=%s pages=%s blocks=%s ocr_pages=%s in %.1f ms",
        fmt,
        document.page_count,
        len(document.blocks),
        len(document.ocr_pages),
        (time.perf_counter() - started) * 1000,
    )
    return document
