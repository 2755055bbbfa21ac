"""The runner's OCR step: pages rendered and read one at a time, resumable across retries.

Holding every page image of a 300-page scan would cost gigabytes; here one page image exists
at a time. A transient engine failure retries the step, and pages already read are kept, so a
retry reads only what is left. Each attempt is announced (``ocr_pending``) before any work,
as the contract asks: once per actual attempt, retries included.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from aceh_rag.platform.gateway.jobs import QueueState
from ingestion.pipeline.base import Block
from ingestion.pipeline.ocr import factory
from ingestion.pipeline.ocr.images import PageImage
from ingestion.pipeline.ocr.layout import ocr_page_to_blocks
from ingestion.pipeline.request import PROGRESS, CompositeObserver, Milestone
from ingestion.pipeline.retry import RetryPolicy, with_retries
from ingestion.queue_text import gateway_queue_text

log = logging.getLogger(__name__)


class PageRenderer(Protocol):
    """One page (1-based) as image bytes or a decoded image: the parse stage's renderer,
    handed in by the runner so that OCR does not depend on the parsers (which use OCR's
    word quality)."""

    def __call__(
        self, path: Path, page_number: int, dpi: int, *, max_pixels: int | None = None
    ) -> bytes | Image.Image: ...


@dataclass(slots=True)
class OcrOutcome:
    engine: str
    blocks_by_page: dict[int, list[Block]] = field(default_factory=dict)
    attempts: int = 0

    @property
    def blocks(self) -> list[Block]:
        return [b for page in sorted(self.blocks_by_page) for b in self.blocks_by_page[page]]

    @property
    def min_confidence(self) -> float | None:
        values = [b.ocr_confidence for b in self.blocks if b.ocr_confidence is not None]
        return min(values) if values else None


def run_ocr(
    path: Path,
    pages: list[int],
    *,
    render: PageRenderer,
    observer: CompositeObserver,
    policy: RetryPolicy,
    dpi: int,
    max_pixels: int | None,
    progress: tuple[int, int] = (PROGRESS[Milestone.OCR_PENDING], PROGRESS[Milestone.OCR]),
    sleep: Callable[[float], None] = time.sleep,
) -> OcrOutcome:
    engine = factory.get_ocr_engine()
    outcome = OcrOutcome(engine=engine.name)
    low, high = progress
    queue_ms: dict[int, int] = {}  # per page: its GPU-queue wait so far (cumulative)
    reading = [0]  # the page being read, for on_queue

    def on_queue(state: Any) -> None:
        if isinstance(state, QueueState):
            observer.status(gateway_queue_text(state))
        waited = getattr(state, "waited_ms", None)
        if isinstance(waited, int):
            queue_ms[reading[0]] = max(queue_ms.get(reading[0], 0), waited)

    def attempt() -> OcrOutcome:
        outcome.attempts += 1
        observer.milestone(Milestone.OCR_PENDING, document_id=None, meta=None)
        for index, number in enumerate(pages):
            if number in outcome.blocks_by_page:
                continue  # read in an earlier attempt
            reading[0] = number
            image = PageImage(
                page=number, image=render(path, number, dpi, max_pixels=max_pixels), dpi=dpi
            )
            ocr_page = engine.recognize(image, on_queue=on_queue)
            del image  # only one page image alive at a time
            outcome.blocks_by_page[number] = ocr_page_to_blocks(ocr_page)
            observer.progress("ocr", low + (high - low) * (index + 1) // max(len(pages), 1))
        return outcome

    started = time.monotonic()
    try:
        with_retries(attempt, policy, what=f"ocr {path.name}", sleep=sleep)
    finally:
        if queue_ms:
            observer.gpu_wait(sum(queue_ms.values()))
    log.info(
        "ocr: %s pages via %s in %.2fs (%s attempts)",
        len(pages),
        engine.name,
        time.monotonic() - started,
        outcome.attempts,
    )
    return outcome
