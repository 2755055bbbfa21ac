"""PDF parsing with PyMuPDF: text blocks in reading order and a per-page OCR decision.

Speed matters (a 1 000-page gazette must not stall the worker), so a page costs one text
extraction plus, only when the page draws images, one image-placement pass. The extra
``dict`` pass that detects invisible text runs only on pages that look like scans.
"""

from __future__ import annotations

import logging
import math
import operator
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import filterfalse
from pathlib import Path
from typing import Any

import numpy as np
import pymupdf
from PIL import Image
from pymupdf import mupdf

from ingestion.errors import PermanentError
from ingestion.pipeline.base import Block, BlockKind, PageFrame, ParsedDocument
from ingestion.pipeline.furniture import PAGE_NUMBER_RE, tidy_pages
from ingestion.pipeline.ocr.confidence import page_quality_reaches
from ingestion.pipeline.parsers.safety import ParseLimits, library_guard
from ingestion.pipeline.reflow import (
    VisualLine,
    paragraph_text,
    paragraphs,
    union,
    visual_lines,
)

log = logging.getLogger(__name__)

# Thresholds of the OCR decision, measured on the development corpus: typed pages carry
# 400-3 000 visible characters; a scan's printed footer ("jdih.bapeten.go.id") carries ~20.
SCAN_COVERAGE = 0.5  # image union covers at least half the page: treat as a scan candidate
PARTIAL_SCAN_COVERAGE = 0.25  # a smaller pasted scan counts only when the page has no text
REAL_TEXT_CHARS = 200  # this much visible text means the text layer is the content
REAL_TEXT_AREA = 0.15  # ...as does text spread over this share of the page
HIDDEN_LAYER_CHARS = 40  # an invisible OCR layer this large is used instead of OCR
# ...unless it reads as garbage: someone else's OCR is only trusted when most of its
# characters form known words (good layers score 0.8+, garbled ones about 0.1 in the corpus).
HIDDEN_LAYER_MIN_QUALITY = 0.5
HIDDEN_LAYER_SAMPLE_CHARS = 240  # ~30 words tell text from garbage; stemming costs ~30 µs a word
FOOTER_ONLY_CHARS = 20
GRID = 48  # resolution of the union-of-rectangles estimate
EXTRACT_BATCH = 64  # pages extracted before their decisions (their blocks: a few MB at most)
TEXT_FLAGS = pymupdf.TEXTFLAGS_BLOCKS
HIDDEN_MODE_RE = re.compile(rb"(?<![\w.])3\s+Tr\b")
# An OCR layer sets its render mode in the first operators of the page (at byte 100-900 of
# the corpus scans), so the content stream is decoded this far first and in full only
# when the mode is not there.
CONTENT_HEAD_BYTES = 4096

PARAGRAPH = BlockKind.PARAGRAPH


@dataclass(frozen=True, slots=True)
class OcrDecision:
    """Why a page does or does not go to OCR; kept small so it can be logged."""

    needs_ocr: bool
    reason: str
    image_coverage: float = 0.0
    visible_chars: int = 0
    invisible_chars: int = 0


# The decisions of a page without images (most pages), shared: decisions are frozen.
_TEXT_LAYER = OcrDecision(False, "text_layer")
_BLANK = OcrDecision(False, "blank")

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 as PyMuPDF's blocks give them


def _grid_span(low: float, high: float, origin: float, size: float) -> tuple[int, int]:
    return round((low - origin) / size * GRID), round((high - origin) / size * GRID)


def _union_fraction(boxes: list[Box], page_rect: Box) -> float:
    """Share of the page covered by the union of ``boxes`` (mosaic tiles must not add up).

    Plain float arithmetic: a ``pymupdf.Rect`` per box costs more than the estimate itself
    on pages of thousands of tiny OCR blocks.
    """
    px0, py0, px1, py1 = page_rect
    width, height = px1 - px0, py1 - py0
    if not boxes or width <= 0 or height <= 0:
        return 0.0
    cells: list[tuple[int, int, int, int]] = []
    for bx0, by0, bx1, by1 in boxes:
        x0, y0, x1, y1 = max(bx0, px0), max(by0, py0), min(bx1, px1), min(by1, py1)
        if x1 <= x0 or y1 <= y0:
            continue
        gx0, gx1 = _grid_span(x0, x1, px0, width)
        gy0, gy1 = _grid_span(y0, y1, py0, height)
        cells.append((gx0, gy0, gx1, gy1))
    if not cells:
        return 0.0
    if len(cells) == 1:  # a scan is usually one image: its grid area, without numpy
        gx0, gy0, gx1, gy1 = cells[0]
        return max(gx1 - gx0, 0) * max(gy1 - gy0, 0) / (GRID * GRID)
    grid = np.zeros((GRID, GRID), dtype=bool)
    for gx0, gy0, gx1, gy1 in cells:
        grid[gy0:gy1, gx0:gx1] = True
    return float(grid.mean())


def _visible_chars(text: str) -> int:
    # str.count runs in C; a per-character Python loop costs more than the extraction.
    return len(text) - text.count(" ") - text.count("\n") - text.count("\t")


def _content_head(page: pymupdf.Page, size: int) -> bytes:
    """The first ``size`` bytes of the page's decoded content, however many streams it has."""
    pdf_page = mupdf.pdf_page_from_fz_page(page.this)
    contents = mupdf.pdf_dict_get(pdf_page.obj(), mupdf.PDF_ENUM_NAME_Contents)
    stream = mupdf.pdf_open_contents_stream(pdf_page.doc(), contents)
    head = mupdf.fz_read_all(mupdf.fz_open_null_filter(stream, size, 0), size)
    return bytes(head.fz_buffer_extract())


def _draws_invisible_text(page: pymupdf.Page) -> bool:
    """Whether the page's own content stream sets text render mode 3 (invisible).

    Decoding a whole content stream costs about as much as a tenth of the page's text
    extraction; the head settles it on every OCR-layered page of the corpus.
    """
    head = _content_head(page, CONTENT_HEAD_BYTES)
    match = HIDDEN_MODE_RE.search(head)
    if match and match.end() < len(head):
        return True
    if len(head) < CONTENT_HEAD_BYTES:  # the head is the whole content
        return match is not None
    return HIDDEN_MODE_RE.search(page.read_contents()) is not None


# How MuPDF marks a character that was painted; an OCR layer's (render mode 3) has none.
_PAINTED = mupdf.FZ_STEXT_FILLED | mupdf.FZ_STEXT_STROKED | mupdf.FZ_STEXT_CLIPPED


def _first_char_invisible(textpage: pymupdf.TextPage) -> bool:
    """Whether the first character the page draws is invisible, read from MuPDF's flags."""
    # Raw structs and one C++ iterator: the Python iteration wrappers cost more than this.
    block = textpage.this.m_internal.first_block
    while block is not None and block.type != mupdf.FZ_STEXT_BLOCK_TEXT:
        block = block.next
    if block is None:
        return False
    lines = mupdf.FzStextBlock(block)
    first = lines.begin()
    if first == lines.end():
        return False
    char = first.__ref__().m_internal.first_char
    return char is not None and not char.flags & _PAINTED


def _invisible_chars(page: pymupdf.Page, starts_invisible: bool, chars: int) -> int:
    """Characters of an invisible OCR layer (text render mode 3) on this page.

    An OCR layer is drawn first or alone, so its first character settles most pages for
    the price of one look at the extraction already made. Otherwise the page's content
    stream is searched for ``3 Tr``, ~20x cheaper than a ``dict`` extraction. Either way
    all the page's text is counted as hidden. Text inside Form XObjects is not in that
    stream, so only then the span alphas are inspected.
    """
    if starts_invisible or _draws_invisible_text(page):
        return chars
    if not page.get_xobjects():
        return 0
    data = page.get_text("dict", flags=TEXT_FLAGS)
    count = 0
    for block in data["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                if span.get("alpha", 255) == 0:
                    count += _visible_chars(span["text"])
    return count


@dataclass(slots=True)
class PageText:
    """One page's extraction: text blocks, image rectangles, page rect, first-character flag.

    The blocks come in content order; they are sorted into reading order once the page
    keeps its text layer (a page that goes to OCR needs no order). They are PyMuPDF's own
    tuples ``(x0, y0, x1, y1, text, block_no, type)``, kept whole so later steps can use
    their rectangles.
    """

    blocks: list[Any]
    images: list[Box]
    rect: Box
    starts_invisible: bool  # its first character is invisible (read on pages with images)
    # (x0, y0, x1, y1, word, block_no, line_no, word_no): the pieces of each block's lines,
    # which put a justified line back together (a page that goes to OCR never reads them).
    words: list[Any]


_READING_ORDER = operator.itemgetter(3, 0)  # PyMuPDF's sort=True order, without a lambda
_IS_IMAGE = operator.itemgetter(6)  # block type: 0 text, 1 image
_BLOCK_TEXT = operator.itemgetter(4)


def _extract(page: pymupdf.Page) -> PageText:
    """Text blocks, image rectangles and the page rect from one text extraction."""
    # Image blocks carry only placement (MuPDF does not decode them here), so one pass
    # yields both the text and the image rectangles the decision needs. The text page's
    # mediabox is the page's bound, read as plain floats: no second call into MuPDF and
    # no Rect object per page.
    textpage = page.get_textpage(flags=TEXT_FLAGS | pymupdf.TEXT_PRESERVE_IMAGES)
    raw = textpage.extractBLOCKS()
    box = textpage.this.m_internal.mediabox
    rect = (box.x0, box.y0, box.x1, box.y1)
    words = textpage.extractWORDS()
    # filter/map with item getters: C-level passes over a scan's thousands of OCR blocks.
    if not any(map(_IS_IMAGE, raw)):
        return PageText(raw, [], rect, False, words)
    images = [b[:4] for b in filter(_IS_IMAGE, raw)]
    # Read while the text page is at hand; only a page with images can be a scan.
    starts_invisible = _first_char_invisible(textpage)
    return PageText(list(filterfalse(_IS_IMAGE, raw)), images, rect, starts_invisible, words)


def _decide(page: pymupdf.Page, extracted: PageText) -> OcrDecision:
    text_blocks, images = extracted.blocks, extracted.images
    if not images:
        return _TEXT_LAYER if text_blocks else _BLANK
    coverage = _union_fraction(images, extracted.rect)
    if coverage >= SCAN_COVERAGE:
        # A hidden layer's garble check samples the top of the page, and a layer may be
        # drawn in any order. In place: a page that keeps its layer is not sorted again.
        text_blocks.sort(key=_READING_ORDER)
    text = "".join(map(_BLOCK_TEXT, text_blocks))
    chars = _visible_chars(text)
    if coverage < PARTIAL_SCAN_COVERAGE:
        return OcrDecision(False, "text_layer" if chars else "blank", coverage, chars)
    if coverage < SCAN_COVERAGE:
        needs = chars < FOOTER_ONLY_CHARS
        return OcrDecision(needs, "partial_scan" if needs else "text_layer", coverage, chars)
    invisible = 0
    if chars >= HIDDEN_LAYER_CHARS:
        invisible = _invisible_chars(page, extracted.starts_invisible, chars)
    visible = chars - invisible
    if invisible >= HIDDEN_LAYER_CHARS:
        sample = text[:HIDDEN_LAYER_SAMPLE_CHARS]
        if not page_quality_reaches([sample], HIDDEN_LAYER_MIN_QUALITY):
            return OcrDecision(True, "garbled_hidden_layer", coverage, visible, invisible)
        return OcrDecision(False, "hidden_text_layer", coverage, visible, invisible)
    text_area = _union_fraction([b[:4] for b in text_blocks], extracted.rect)
    if visible >= REAL_TEXT_CHARS or text_area >= REAL_TEXT_AREA:
        return OcrDecision(False, "text_over_image", coverage, visible, invisible)
    reason = "scan_with_footer_text" if visible else "scanned_image"
    return OcrDecision(True, reason, coverage, visible, invisible)


def decide_page_ocr(page: pymupdf.Page) -> OcrDecision:
    """Decide whether ``page`` needs OCR from its text layer and image placement.

    Signals: the union of image rectangles (tiles of a mosaic scan do not add up twice),
    visible characters and the area their blocks cover (a watermark over real text keeps
    the text), and an invisible OCR layer (used as is, no OCR, unless it is garbled).
    """
    return _decide(page, _extract(page))


def page_needs_ocr(page: pymupdf.Page) -> bool:
    return decide_page_ocr(page).needs_ocr


def _open_pdf(path: Path, limits: ParseLimits) -> pymupdf.Document:
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:
        raise PermanentError(
            "PDF rusak / tidak dapat dibaca", code="corrupt", detail=str(exc)
        ) from exc
    if doc.needs_pass:
        doc.close()
        raise PermanentError("PDF terenkripsi / dilindungi kata sandi", code="encrypted")
    with library_guard("PDF rusak / tidak dapat dibaca"):
        count = doc.page_count
    if count == 0:
        doc.close()
        raise PermanentError("PDF rusak / tidak dapat dibaca (tidak ada halaman)", code="corrupt")
    if count > limits.max_pages:
        doc.close()
        raise PermanentError(
            f"PDF terlalu banyak halaman ({count} > {limits.max_pages})", code="too_many_pages"
        )
    return doc


def _page_blocks(page: pymupdf.Page, extracted: PageText) -> tuple[list[Block], OcrDecision]:
    decision = _decide(page, extracted)
    if decision.needs_ocr:
        # The OCR stage supplies this page's text; a stray footer line would duplicate it.
        return [], decision
    # Sorted only now: a page that goes to OCR does not need its blocks in order.
    extracted.blocks.sort(key=_READING_ORDER)
    number = page.number + 1 if page.number is not None else 1
    x, y, right, bottom = extracted.rect
    frame = PageFrame(right - x, bottom - y, "pt", 72)
    page_number = PAGE_NUMBER_RE.match
    blocks = []
    for lines in paragraphs(_page_lines(extracted)):
        text = paragraph_text(lines)
        if text and not page_number(text):
            x0, y0, x1, y1 = union([line.box for line in lines])
            box = (x0 - x, y0 - y, x1 - x, y1 - y) if x or y else (x0, y0, x1, y1)
            # Positional: keyword arguments cost a third of the block's construction.
            blocks.append(Block(text, number, PARAGRAPH, 0, None, None, box, frame))
    return blocks, decision


def _page_lines(extracted: PageText) -> list[VisualLine]:
    """The page's printed lines in reading order: each block's pieces (MuPDF's lines, cut
    at every wide gap of a justified line) put back on the lines they were printed on."""
    pieces: dict[int, dict[int, list[Any]]] = {}
    for word in extracted.words:
        pieces.setdefault(word[5], {}).setdefault(word[6], []).append(word)
    lines: list[VisualLine] = []
    for block in extracted.blocks:
        in_block = pieces.get(block[5])
        if not in_block:
            continue
        runs = [
            ((ws[0][0], min(w[1] for w in ws), ws[-1][2], max(w[3] for w in ws)), _words(ws))
            for ws in in_block.values()
        ]
        lines.extend(visual_lines(runs))
    return lines


def _words(words: list[Any]) -> str:
    return " ".join(word[4] for word in words)


def _extract_page(doc: pymupdf.Document, index: int) -> tuple[pymupdf.Page, PageText] | Exception:
    """The page and its extraction, or the error that stopped them (kept for its page)."""
    try:
        page = doc.load_page(index)  # doc[index] checks the index again
        return page, _extract(page)
    except Exception as exc:
        return exc


def _unreadable(result: ParsedDocument, number: int, exc: Exception) -> None:
    """One broken page must not sink the document; OCR may still read its image."""
    log.info("pdf page %s unreadable: %s", number, exc)
    result.warnings.append(f"Halaman {number} tidak dapat dibaca: {exc}")
    result.ocr_pages.append(number)


def _extracted_pages(
    doc: pymupdf.Document,
) -> Iterator[tuple[int, tuple[pymupdf.Page, PageText] | Exception]]:
    """Every page's index and extraction, in order.

    A run of ``EXTRACT_BATCH`` pages is extracted back to back before the caller decides
    them: MuPDF's working set and ours then stay warm (about 1% of parse time).
    """
    for start in range(0, doc.page_count, EXTRACT_BATCH):
        stop = min(start + EXTRACT_BATCH, doc.page_count)
        yield from enumerate([_extract_page(doc, index) for index in range(start, stop)], start)


def parse_pdf(path: Path, limits: ParseLimits) -> ParsedDocument:
    started = time.perf_counter()
    doc = _open_pdf(path, limits)
    result = ParsedDocument(format="pdf", page_count=doc.page_count)
    repaired = bool(doc.is_repaired)
    per_page: list[list[Block]] = []
    reasons: Counter[str] = Counter()
    try:
        for index, extracted in _extracted_pages(doc):
            try:
                if isinstance(extracted, Exception):
                    raise extracted  # the extraction's own error, reported like the others
                blocks, decision = _page_blocks(*extracted)
            except Exception as exc:
                _unreadable(result, index + 1, exc)
                per_page.append([])
                continue
            reasons[decision.reason] += 1
            if decision.needs_ocr:
                result.ocr_pages.append(index + 1)
            per_page.append(blocks)
    finally:
        doc.close()
    if len(result.warnings) == result.page_count:
        raise PermanentError("PDF rusak / tidak dapat dibaca", code="corrupt")
    if repaired and not result.ocr_pages and not any(per_page):
        # MuPDF rebuilt a broken file (e.g. truncated) and found nothing on any page.
        raise PermanentError("PDF rusak / tidak dapat dibaca", code="corrupt")
    dropped = tidy_pages(per_page)
    result.blocks = [block for blocks in per_page for block in blocks if block.text]
    log.info(
        "parsed pdf pages=%s ocr_pages=%s decisions=%s running_heads_dropped=%s in %.1f ms",
        result.page_count,
        len(result.ocr_pages),
        dict(reasons),
        dropped,
        (time.perf_counter() - started) * 1000,
    )
    return result


def render_page_png(
    path: Path, page_number: int, dpi: int, *, max_pixels: int | None = None
) -> bytes:
    """Render one page (1-based) of a PDF or image file as PNG; only this page is held.

    ``max_pixels`` lowers the resolution instead of failing, so a huge page cannot exhaust
    memory during OCR or in the review UI.
    """
    return bytes(_render_pixmap(path, page_number, dpi, max_pixels).tobytes("png"))


def render_page_image(
    path: Path, page_number: int, dpi: int, *, max_pixels: int | None = None
) -> Image.Image:
    """The page of :func:`render_page_png`, decoded: what the OCR step reads.

    The local engine would only decode a PNG again: encoding and decoding a 200-dpi page
    cost 0.16–0.27 CPU-s, a tenth to a sixth of reading it (docs/decisions.md, issue #24).
    The gateway engine encodes the page itself.
    """
    pixmap = _render_pixmap(path, page_number, dpi, max_pixels)
    with library_guard("PDF rusak / tidak dapat dibaca"):
        # samples_mv, not samples: the latter is one more full copy of the page.
        return Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples_mv)


def _render_pixmap(
    path: Path, page_number: int, dpi: int, max_pixels: int | None
) -> pymupdf.Pixmap:
    with library_guard("PDF rusak / tidak dapat dibaca"):
        with pymupdf.open(path) as doc:
            if doc.needs_pass:
                raise PermanentError("PDF terenkripsi / dilindungi kata sandi", code="encrypted")
            if not 1 <= page_number <= doc.page_count:
                raise PermanentError(
                    f"Halaman {page_number} tidak ada (dokumen {doc.page_count} halaman)",
                    code="bad_page",
                )
            page = doc[page_number - 1]
            zoom = dpi / 72.0
            if max_pixels:
                zoom = _capped_zoom(page.rect.width, page.rect.height, zoom, max_pixels)
            return page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)


def _capped_zoom(width: float, height: float, zoom: float, max_pixels: int) -> float:
    """The largest zoom up to ``zoom`` whose pixmap has at most ``max_pixels`` pixels.

    MuPDF rounds each side of the pixmap outwards, so the ideal area alone is not enough: a
    7,000-pt square page capped at 80 Mpx came out at 80,013,025 px, which the OCR's own
    pixel check then refused.
    """
    zoom = min(zoom, (max_pixels / (width * height)) ** 0.5)
    for _ in range(200):  # 0.5 % steps: enough for any cap of four pixels or more
        if (math.ceil(width * zoom) + 1) * (math.ceil(height * zoom) + 1) <= max_pixels:
            break
        zoom *= 0.995
    return zoom
