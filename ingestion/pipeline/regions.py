"""Where each chunk sits on its pages: the boxes of the blocks (and OCR lines) it came from.

Parse and OCR keep each block's box in its page frame (PDF points for the text layer, pixels
at a known dpi for OCR; see :class:`ingestion.pipeline.base.PageFrame`). After chunking, a
chunk is matched back to the blocks of its pages by text, so neither the chunker nor the
legal structure code has to carry geometry. The result is stored on ``Chunk.regions``::

    [{"page": 3, "w": 595.0, "h": 842.0, "unit": "pt", "dpi": 72,
      "boxes": [[x0, y0, x1, y1], ...],
      "lines": [{"box": [x0, y0, x1, y1], "c": 0.43, "o": 0, "n": 57}, ...]}]

``lines`` (OCR only) carry the calibrated confidence ``c`` and where the line's text starts
(``o``) and how long it is (``n``) in the chunk's text, so the review page can outline the
doubtful lines and highlight the one under the caret.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ingestion.pipeline.base import Block, Box, ChunkDraft

log = logging.getLogger(__name__)

EDGE_CHARS = 40  # a long block split over chunks is recognised by its first or last words


def _norm(text: str) -> str:
    return " ".join(text.split())


def _rounded(box: Box) -> list[float]:
    return [round(value, 1) for value in box]


def _belongs(block_text: str, chunk_text: str) -> bool:
    if not block_text:
        return False
    if block_text in chunk_text or chunk_text in block_text:
        return True
    if len(block_text) < EDGE_CHARS:
        return False
    return block_text[:EDGE_CHARS] in chunk_text or block_text[-EDGE_CHARS:] in chunk_text


def _lines(block: Block, chunk_text: str, cursor: list[int]) -> list[dict[str, Any]]:
    out = []
    for line in block.lines or ():
        if line.box is None:
            continue
        text = _norm(line.text)
        at = chunk_text.find(text, cursor[0]) if text else -1
        if at < 0:
            at = chunk_text.find(text) if text else -1
        if at < 0:
            continue  # this line went to a neighbouring chunk
        cursor[0] = at + len(text)
        out.append(
            {"box": _rounded(line.box), "c": round(line.confidence, 3), "o": at, "n": len(text)}
        )
    return out


def chunk_regions(
    draft: ChunkDraft, blocks_by_page: dict[int, list[Block]]
) -> list[dict[str, Any]]:
    chunk_text = _norm(draft.text)
    regions: list[dict[str, Any]] = []
    cursor = [0]
    for page in range(draft.page_from, draft.page_to + 1):
        region: dict[str, Any] | None = None
        for block in blocks_by_page.get(page, ()):
            if block.bbox is None or block.frame is None:
                continue
            if not _belongs(_norm(block.text), chunk_text):
                continue
            if region is None:
                frame = block.frame
                region = {
                    "page": page,
                    "w": round(frame.width, 1),
                    "h": round(frame.height, 1),
                    "unit": frame.unit,
                    "dpi": frame.dpi,
                    "boxes": [],
                }
            region["boxes"].append(_rounded(block.bbox))
            lines = _lines(block, chunk_text, cursor)
            if lines:
                region.setdefault("lines", []).extend(lines)
        if region is not None:
            regions.append(region)
    return regions


def attach_regions(drafts: Sequence[ChunkDraft], blocks: Sequence[Block]) -> None:
    """Set ``draft.regions`` for every draft whose blocks carry boxes."""
    started = time.perf_counter()
    by_page: dict[int, list[Block]] = defaultdict(list)
    for block in blocks:
        if block.bbox is not None:
            by_page[block.page].append(block)
    if not by_page:
        return
    for draft in drafts:
        draft.regions = chunk_regions(draft, by_page)
    log.info(
        "regions for %s chunks from %s boxed blocks in %.1f ms",
        len(drafts),
        sum(len(v) for v in by_page.values()),
        (time.perf_counter() - started) * 1000,
    )
