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
from ingestion.pipeline.base import OcrLine, OcrPage
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
        try:
            result = client.ocr(
                [(p.page, png_bytes(p)) for p in pages], ctx=current_context(), on_queue=on_queue
            )
        except GatewayError as exc:
            raise stage_error(exc) from exc
        by_page = {int(item.get("page", 0)): item for item in result}
        out = [flag_unread(to_ocr_page(p.page, by_page.get(p.page)), p) for p in pages]
        log.info(
            "ocr_gateway: %s pages in %.0f ms", len(pages), (time.monotonic() - started) * 1000
        )
        return out


def to_ocr_page(page: int, item: Mapping[str, Any] | None) -> OcrPage:
    """One result page of the wire format, calibrated; a missing page reads as empty."""
    if item is None:
        log.warning("ocr_gateway: the result has no page %s", page)
        return OcrPage(page=page)
    lines = []
    for line in item.get("lines") or []:
        text = str(line.get("text") or "").strip()
        if not text:
            continue
        raw = line.get("confidence")
        raw_score = float(raw) if isinstance(raw, int | float) else None
        lines.append(
            OcrLine(
                text=text, confidence=line_confidence(text, raw_score), raw_confidence=raw_score
            )
        )
    return OcrPage(page=page, lines=lines)
