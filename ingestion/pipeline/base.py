"""The small interface every pipeline stage shares.

Stages are plain functions over these dataclasses. They never touch Django models; the
runner (``ingestion/pipeline/runner.py``) persists results and reports milestones.

A stage that fails raises an :class:`ingestion.errors.StageError` (permanent or transient).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ingestion.legal.units import UnitSpan

# x0, y0, x1, y1 in the page frame's unit, origin top-left.
Box = tuple[float, float, float, float]


class BlockKind(StrEnum):
    HEADING = "heading"
    PARAGRAPH = "paragraph"
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class PageFrame:
    """The coordinate frame boxes on a page are measured in.

    Text-layer blocks: PDF points (``unit="pt"``, ``dpi=72``), the page's own size. OCR
    lines: pixels of the image the engine read, rendered at ``dpi``. Either way the frame
    spans the whole page, so a box scales onto any rendering of that page.
    """

    width: float
    height: float
    unit: str
    dpi: int


@dataclass(slots=True)
class Block:
    """One unit of parsed text in reading order.

    ``level`` is the heading depth for headings (1 = top). For tables, ``rows`` holds the
    cells and ``text`` a plain rendering; the chunker splits tables by rows and repeats
    ``rows[0]`` as the header.
    """

    text: str
    page: int = 1
    kind: BlockKind = BlockKind.PARAGRAPH
    level: int = 0
    rows: list[list[str]] | None = None
    ocr_confidence: float | None = None
    bbox: Box | None = None  # where the block sits on its page, in ``frame``
    frame: PageFrame | None = None
    lines: list[OcrLine] | None = None  # OCR blocks: the lines they were joined from
    # The paragraph goes on from the previous block (a sentence running over a page break):
    # readers join the two with a space, not a line break.
    joins_previous: bool = False


@dataclass(slots=True)
class ParsedDocument:
    """The output of parse. Pages listed in ``ocr_pages`` have no trustworthy text yet."""

    format: str
    page_count: int
    blocks: list[Block] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class OcrLine:
    text: str
    confidence: float  # calibrated, 0..1; what needs_review trusts
    raw_confidence: float | None = None  # the engine's own score, kept for diagnostics
    box: Box | None = None  # in the page's frame (image pixels at the page's dpi)


@dataclass(slots=True)
class OcrPage:
    page: int
    lines: list[OcrLine] = field(default_factory=list)
    frame: PageFrame | None = None

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass(slots=True)
class ChunkDraft:
    """A chunk before it has an embedding or a database row."""

    ordinal: int
    text: str
    heading_path: list[str]
    page_from: int
    page_to: int
    token_count: int
    ocr_confidence: float | None = None
    regions: list[dict[str, Any]] = field(default_factory=list)  # see pipeline/regions.py
    units: list[UnitSpan] = field(default_factory=list)  # legal units, outer before inner

    @property
    def heading_path_text(self) -> str:
        return " › ".join(self.heading_path)
