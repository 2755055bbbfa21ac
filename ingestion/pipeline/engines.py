"""Which models this process has loaded itself: what the platform heartbeat reports.

Gateway models are the gateway's, not ours, so with ``MODEL_GATEWAY_URL`` set this is empty.
"""

from __future__ import annotations

from ingestion.pipeline.embed import loaded_local_embedders
from ingestion.pipeline.ocr.factory import loaded_local_ocr_engines


def loaded_models() -> list[str]:
    return [*loaded_local_embedders(), *loaded_local_ocr_engines()]
