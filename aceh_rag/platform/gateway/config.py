"""The gateway client's settings, read once from Django settings (``MODEL_GATEWAY_URL`` …)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from aceh_rag.platform.context import ENGINE


@dataclass(frozen=True, slots=True)
class GatewayConfig:
    base_url: str  # MODEL_GATEWAY_URL, without /v1
    embed_model: str = "tei-embeddings"
    ocr_model: str = "paddleocr"
    config_version: str = "1"
    timeout_s: float = 60.0
    interactive_timeout_s: float = 20.0
    max_retries: int = 3
    ocr_processing_timeout_s: float = 600.0
    queue_wait_ms: int = 1_800_000
    backoff_base_s: float = 0.5
    backoff_max_s: float = 30.0
    poll_interval_s: float = 2.0
    embed_batch_size: int = 64
    rerank_model: str = ""  # empty: reranking is dormant
    engine: str = ENGINE

    @classmethod
    def from_settings(cls) -> GatewayConfig | None:
        url = settings.MODEL_GATEWAY_URL
        if not url:
            return None
        return cls(
            base_url=str(url).rstrip("/"),
            embed_model=settings.GATEWAY_EMBED_MODEL,
            ocr_model=settings.GATEWAY_OCR_MODEL,
            config_version=str(settings.GATEWAY_CONFIG_VERSION),
            timeout_s=settings.GATEWAY_TIMEOUT_SECONDS,
            interactive_timeout_s=settings.GATEWAY_INTERACTIVE_TIMEOUT_SECONDS,
            max_retries=settings.GATEWAY_MAX_RETRIES,
            ocr_processing_timeout_s=settings.GATEWAY_OCR_PROCESSING_TIMEOUT_SECONDS,
            queue_wait_ms=settings.GPU_QUEUE_WAIT_MS,
            backoff_base_s=settings.GATEWAY_BACKOFF_BASE_SECONDS,
            poll_interval_s=settings.GATEWAY_POLL_INTERVAL_SECONDS,
            embed_batch_size=settings.GATEWAY_EMBED_BATCH_SIZE,
            rerank_model=settings.GATEWAY_RERANK_MODEL or "",
            engine=settings.ENGINE_NAME,
        )

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/v1"
