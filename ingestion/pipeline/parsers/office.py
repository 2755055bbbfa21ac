"""DOCX, XLSX and PPTX. Each container passes the zip-bomb check before its library opens it."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ingestion.errors import PermanentError
from ingestion.pipeline.base import Block, BlockKind, ParsedDocument
from ingestion.pipeline.parsers.safety import ParseLimits, check_zip_container, library_guard

HEADING_STYLE_RE = re.compile(r"^(?:heading|judul)\s*(\d)\b", re.IGNORECASE)
TITLE_STYLES = {"title", "judul"}


def _table_block(rows: list[list[str]], page: int) -> Block | None:
    rows = [row for row in rows if any(cell for cell in row)]
    if not rows:
        return None
    rendered = "\n".join(" | ".join(row) for row in rows)
    return Block(rendered, page=page, kind=BlockKind.TABLE, rows=rows)


# --- DOCX -------------------------------------------------------------------------------


def _heading_level(style_name: str) -> int:
    match = HEADING_STYLE_RE.match(style_name.strip())
    if match:
        return max(1, int(match.group(1)))
    return 1 if style_name.strip().lower() in TITLE_STYLES else 0


def _docx_rows(table: Any) -> list[list[str]]:
    rows = []
    for row in table.rows:
        cells: list[str] = []
        previous = None
        for cell in row.cells:
            # A horizontally merged cell comes back once per grid column; keep it once.
            if cell._tc is previous:
                continue
            previous = cell._tc
            cells.append(" ".join(cell.text.split()))
        rows.append(cells)
    return rows


def _docx_breaks(paragraph: Any, rendered: bool) -> int:
    if rendered:
        return len(paragraph.rendered_page_breaks)
    return len(paragraph._p.xpath('.//w:br[@w:type="page"]'))


def _docx_blocks(document: Any) -> tuple[list[Block], int]:
    # Imported here: a heavy library, loaded only when such a file arrives.
    from docx.table import Table

    rendered = bool(document.element.body.xpath(".//w:lastRenderedPageBreak"))
    blocks: list[Block] = []
    page = 1
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            block = _table_block(_docx_rows(item), page)
            if block:
                blocks.append(block)
            continue
        page += _docx_breaks(item, rendered)
        text = item.text.strip()
        if not text:
            continue
        level = _heading_level(item.style.name if item.style is not None else "")
        kind = BlockKind.HEADING if level else BlockKind.PARAGRAPH
        blocks.append(Block(text, page=page, kind=kind, level=level))
    return blocks, page


def parse_docx(path: Path, limits: ParseLimits) -> ParsedDocument:
    check_zip_container(path, "DOCX", limits)
    with library_guard("Berkas DOCX rusak"):
        # Imported here: a heavy library, loaded only when such a file arrives.
        import docx

        blocks, pages = _docx_blocks(docx.Document(str(path)))
    return ParsedDocument(format="docx", page_count=pages, blocks=blocks)


# --- XLSX -------------------------------------------------------------------------------


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return " ".join(str(value).split())


def _sheet_rows(rows: Iterable[tuple[Any, ...]]) -> Iterator[list[str]]:
    for row in rows:
        cells = [_cell_text(value) for value in row]
        while cells and not cells[-1]:
            cells.pop()
        if cells:
            yield cells


def parse_xlsx(path: Path, limits: ParseLimits) -> ParsedDocument:
    check_zip_container(path, "XLSX", limits)
    blocks: list[Block] = []
    with library_guard("Berkas XLSX rusak"):
        # Imported here: a heavy library, loaded only when such a file arrives.
        import openpyxl

        workbook = openpyxl.load_workbook(str(path), read_only=True, data_only=True)
        try:
            sheets = [ws for ws in workbook.worksheets if hasattr(ws, "iter_rows")]
            for number, sheet in enumerate(sheets, 1):
                block = _table_block(list(_sheet_rows(sheet.iter_rows(values_only=True))), number)
                if block is None:
                    continue
                title = str(sheet.title)
                blocks.append(Block(title, page=number, kind=BlockKind.HEADING, level=1))
                blocks.append(block)
        finally:
            workbook.close()
    return ParsedDocument(format="xlsx", page_count=max(1, len(sheets)), blocks=blocks)


# --- PPTX -------------------------------------------------------------------------------


def _iter_shapes(shapes: Iterable[Any]) -> Iterator[Any]:
    for shape in shapes:
        if getattr(shape, "shape_type", None) == 6:  # MSO_SHAPE_TYPE.GROUP
            yield from _iter_shapes(shape.shapes)
        else:
            yield shape


def _slide_blocks(slide: Any, number: int) -> list[Block]:
    title = slide.shapes.title
    title_id = title.shape_id if title is not None else None
    shapes = sorted(
        _iter_shapes(slide.shapes),
        key=lambda s: (s.shape_id != title_id, s.top or 0, s.left or 0),
    )
    blocks: list[Block] = []
    for shape in shapes:
        if getattr(shape, "has_table", False) and shape.has_table:
            rows = [[" ".join(c.text.split()) for c in row.cells] for row in shape.table.rows]
            table = _table_block(rows, number)
            if table:
                blocks.append(table)
        elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
            text = shape.text_frame.text.strip()
            if not text:
                continue
            if shape.shape_id == title_id:
                blocks.append(Block(text, page=number, kind=BlockKind.HEADING, level=1))
            else:
                blocks.append(Block(text, page=number))
    if slide.has_notes_slide:
        notes = slide.notes_slide.notes_text_frame
        text = notes.text.strip() if notes is not None else ""
        if text:
            blocks.append(Block(f"Catatan: {text}", page=number))
    return blocks


def parse_pptx(path: Path, limits: ParseLimits) -> ParsedDocument:
    check_zip_container(path, "PPTX", limits)
    with library_guard("Berkas PPTX rusak"):
        # Imported here: a heavy library, loaded only when such a file arrives.
        from pptx import Presentation

        slides = list(Presentation(str(path)).slides)
        blocks = [b for number, s in enumerate(slides, 1) for b in _slide_blocks(s, number)]
    if len(slides) > limits.max_pages:
        raise PermanentError(
            f"Presentasi terlalu banyak slide ({len(slides)} > {limits.max_pages})",
            code="too_many_pages",
        )
    return ParsedDocument(format="pptx", page_count=max(1, len(slides)), blocks=blocks)
