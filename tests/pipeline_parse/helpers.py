"""Files the parse tests generate themselves: PDFs (typed, scanned, mixed), office files,
hostile containers. Nothing here reads the shared corpus."""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import pymupdf

from tests.corpus import CORPUS

CORPUS_DOCS = CORPUS / "docs"
PARAGRAPH = (
    "Pasal 5 Setiap orang berhak memperoleh informasi publik sesuai dengan ketentuan "
    "peraturan perundang-undangan yang berlaku di Provinsi Aceh. "
)


def text_page(doc: pymupdf.Document, text: str, *, footer: str | None = None) -> pymupdf.Page:
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(60, 60, 535, 760), text, fontsize=11)
    if footer:
        page.insert_text((60, 820), footer, fontsize=8)
    return page


def scan_pixmap(text: str, dpi: int = 60) -> pymupdf.Pixmap:
    """A picture of a typed page: what a scanner produces, with no text layer."""
    source = pymupdf.open()
    text_page(source, text)
    return source[0].get_pixmap(dpi=dpi)


def scan_page(doc: pymupdf.Document, text: str) -> pymupdf.Page:
    page = doc.new_page(width=595, height=842)
    page.insert_image(page.rect, pixmap=scan_pixmap(text))
    return page


def mosaic_scan_page(doc: pymupdf.Document, text: str, tiles: int = 4) -> pymupdf.Page:
    """A scan stored as a grid of small image tiles (some scanners and converters do this)."""
    source = pymupdf.open()
    text_page(source, text)
    page = doc.new_page(width=595, height=842)
    width, height = page.rect.width / tiles, page.rect.height / tiles
    for row in range(tiles):
        for col in range(tiles):
            rect = pymupdf.Rect(col * width, row * height, (col + 1) * width, (row + 1) * height)
            page.insert_image(rect, pixmap=source[0].get_pixmap(dpi=60, clip=rect))
    return page


def write(doc: pymupdf.Document, path: Path, **kwargs: object) -> Path:
    doc.save(path, **kwargs)
    doc.close()
    return path


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width``×``height`` pixels; no pixel data follows."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


def zip_bomb(path: Path, member: str, inflated_bytes: int) -> Path:
    """An OOXML-looking zip with one member of zeros that inflates enormously."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr(member, b"\0" * inflated_bytes)
    return path


# --- an official gazette page: justified lines placed word by word --------------------

GAZETTE_LEFT, GAZETTE_RIGHT = 80.0, 540.0


def gazette_line(
    page: pymupdf.Page, y: float, words: list[str], *, x0: float = GAZETTE_LEFT, last: bool = False
) -> None:
    """One printed line, its words spread edge to edge as a justified line is (each word
    drawn on its own, so the gaps are as wide as a gazette's), or set ragged when ``last``."""
    font = pymupdf.Font("tiro")
    widths = [font.text_length(w, fontsize=11) for w in words]
    gap = 3.0 if last or len(words) == 1 else (GAZETTE_RIGHT - x0 - sum(widths)) / (len(words) - 1)
    x = x0
    for word, width in zip(words, widths, strict=True):
        page.insert_text((x, y), word, fontname="tiro", fontsize=11)
        x += width + gap


def gazette_page(
    doc: pymupdf.Document,
    lines: list[tuple[float, str, bool]],
    *,
    folio: str | None = None,
    catchword: str | None = None,
) -> pymupdf.Page:
    """A page of ``(x0, text, last line of its paragraph)`` lines, with the running head of
    a UU, a folio at the top and a catchword at the foot."""
    page = doc.new_page(width=595, height=842)
    if folio:
        page.insert_text((255, 30), "PRESIDEN REPUBLIK INDONESIA", fontname="tibo", fontsize=9)
        page.insert_text((285, 60), folio, fontname="tiro", fontsize=11)
    y = 110.0
    for x0, text, last in lines:
        gazette_line(page, y, text.split(), x0=x0, last=last)
        y += 17
    if catchword:
        page.insert_text((440, 800), catchword, fontname="tiro", fontsize=11)
    return page
