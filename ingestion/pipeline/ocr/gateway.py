"""OCR through the AHU model gateway: a thin :class:`OcrEngine` over ``GatewayClient.ocr``.

The gateway runs the batch OCR job (``paddleocr`` by default); this adapter only turns pages
into the wire tuples and the result pages back into :class:`OcrPage`. The gateway's own
line confidences are PaddleOCR softmax means, saturated like RapidOCR's, so they go through
the same calibration as the local engine's and are kept as ``raw_confidence``.
Gateway errors become the pipeline's :class:`PermanentError` / :class:`TransientError`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from aceh_rag.platform.context import current_context
from aceh_rag.platform.gateway.client import get_gateway_client
from aceh_rag.platform.gateway.errors import GatewayError
from ingestion.errors import TransientError, stage_error
from ingestion.pipeline.base import Box, OcrLine, OcrPage, PageFrame
from ingestion.pipeline.ocr.confidence import line_confidence
from ingestion.pipeline.ocr.engine import QueueListener
from ingestion.pipeline.ocr.images import PageImage, flag_unread, png_bytes

log = logging.getLogger(__name__)

# Called with the gateway's queue state while the job waits (position, ETA).


class GatewayOcrEngine:
    """:class:`ingestion.pipeline.ocr.engine.OcrEngine` backed by the model gateway."""

    name = "gateway"

    def recognize(self, page: PageImage, *, on_queue: QueueListener | None = None) -> OcrPage:
        return self.recognize_many([page], on_queue=on_queue)[0]

    def recognize_many(
        self, pages: Sequence[PageImage], *, on_queue: QueueListener | None = None
    ) -> list[OcrPage]:
        """One gateway OCR job for ``pages``; ``on_queue`` hears the GPU-queue position."""

        client = get_gateway_client()
        if client is None:
            raise TransientError("Gateway model belum dikonfigurasi", code="gateway_not_configured")
        started = time.monotonic()
        sent = [(p.page, png_bytes(p)) for p in pages]
        try:
            result = client.ocr(sent, ctx=current_context(), on_queue=on_queue)
        except GatewayError as exc:
            raise stage_error(exc) from exc
        by_page = {int(item.get("page", 0)): item for item in result}
        frames = {p.page: png_frame(data, p.dpi) for p, (_, data) in zip(pages, sent, strict=True)}
        out = [
            flag_unread(to_ocr_page(p.page, by_page.get(p.page), frames.get(p.page)), p)
            for p in pages
        ]
        log.info(
            "ocr_gateway: %s pages in %.0f ms", len(pages), (time.monotonic() - started) * 1000
        )
        return out


def png_frame(data: bytes, dpi: int) -> PageFrame | None:
    """The pixel frame of the PNG sent: its IHDR width and height, no decoding."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    return PageFrame(
        float(int.from_bytes(data[16:20], "big")),
        float(int.from_bytes(data[20:24], "big")),
        "px",
        dpi,
    )


def _box(value: Any) -> Box | None:
    """The optional ``box`` of a result line, [x0, y0, x1, y1] in the sent image's pixels."""
    if not isinstance(value, list | tuple) or len(value) != 4:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    x0, y0, x1, y1 = (float(v) for v in value)
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def to_ocr_page(
    page: int, item: Mapping[str, Any] | None, frame: PageFrame | None = None
) -> OcrPage:
    """One result page of the wire format, calibrated; a missing page reads as empty."""
    if item is None:
        log.warning("ocr_gateway: the result has no page %s", page)
        return OcrPage(page=page, frame=frame)
    lines = []
    for line in item.get("lines") or []:
        text = str(line.get("text") or "").strip()
        if not text:
            continue
        raw = line.get("confidence")
        raw_score = float(raw) if isinstance(raw, int | float) else None
        lines.append(
            OcrLine(
                text=text,
                confidence=line_confidence(text, raw_score),
                raw_confidence=raw_score,
                box=_box(line.get("box")),
            )
        )
    return OcrPage(page=page, lines=lines, frame=frame)
