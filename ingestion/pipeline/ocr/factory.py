"""The process-wide OCR engine: the gateway's when ``MODEL_GATEWAY_URL`` is set, else local.

Platform rule: no engine calls an OCR model directly once its gateway is configured. The
local engine is built once per process (loading the ONNX models takes seconds) and shared.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings

from ingestion.pipeline.ocr.engine import OcrEngine
from ingestion.pipeline.ocr.gateway import GatewayOcrEngine
from ingestion.pipeline.ocr.local import LocalOcrEngine, SessionChoice


def get_ocr_engine() -> OcrEngine:
    """The process-wide engine: the gateway when ``MODEL_GATEWAY_URL`` is set, else local."""
    return _engine_for(settings.MODEL_GATEWAY_URL)


_local_engines_loaded: list[str] = []


def loaded_local_ocr_engines() -> list[str]:
    """Names of the OCR engines this process has loaded itself (for the heartbeat)."""
    return list(_local_engines_loaded)


@lru_cache(maxsize=4)
def _engine_for(gateway_url: str | None) -> OcrEngine:
    # Keyed by the URL so a settings override (tests, a reconfigured process) gets the
    # right engine while the slow local model load still happens once.
    if gateway_url:
        return GatewayOcrEngine()
    choice = SessionChoice(
        threads=settings.OCR_THREADS,
        memory_limit_mb=settings.OCR_MEMORY_LIMIT_MB,
        fast_rec=settings.OCR_FAST_RECOGNISER,
    )
    engine = LocalOcrEngine(options=choice)
    _local_engines_loaded.append(engine.name)
    return engine
