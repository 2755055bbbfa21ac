"""The protocol every OCR engine follows (the gateway's and the local RapidOCR one).

Both return :class:`OcrPage` lines whose ``confidence`` comes from
:func:`ingestion.pipeline.ocr.confidence.line_confidence`, so ``needs_review`` means the
same thing whichever engine read the page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ingestion.pipeline.base import OcrPage
from ingestion.pipeline.ocr.images import PageImage

# Called with the engine's queue state while a remote engine waits for capacity.
QueueListener = Callable[[Any], None]


@runtime_checkable
class OcrEngine(Protocol):
    """Reads page images. Implementations calibrate ``OcrLine.confidence`` with
    :func:`ingestion.pipeline.ocr.confidence.line_confidence` and mark unread pages with
    :func:`flag_unread`."""

    name: str

    # ``on_queue`` hears queue state while a remote engine waits for capacity (the GPU
    # gateway); local engines never wait and ignore it.
    def recognize(self, page: PageImage, *, on_queue: QueueListener | None = None) -> OcrPage: ...

    def recognize_many(
        self, pages: Sequence[PageImage], *, on_queue: QueueListener | None = None
    ) -> list[OcrPage]: ...
