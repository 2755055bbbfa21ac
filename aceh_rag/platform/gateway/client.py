"""Client for the AHU model gateway (conventions §2–§4; wire shapes in docs/gateway.md).

Dormant unless ``MODEL_GATEWAY_URL`` is set: :func:`get_gateway_client` then returns None
and callers use the local engines. The retry policy is the heart of this module:

- 2xx: done.
- 429, or 503 with Retry-After: backpressure. Interactive calls raise
  :class:`GatewayBackpressure` at once (search degrades to lexical-only); batch calls wait
  the told time plus a little jitter, without counting a failure, within GPU_QUEUE_WAIT_MS.
- 408, other 5xx, network errors: bounded retries with exponential backoff.
- any other 4xx: a verdict. One request, never retried, the upstream's reason kept.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from aceh_rag.platform.context import CallContext, current_context
from aceh_rag.platform.gateway.config import GatewayConfig
from aceh_rag.platform.gateway.errors import (
    GatewayBackpressure,
    GatewayProtocolError,
    GatewayUnavailable,
    verdict_from_response,
)
from aceh_rag.platform.gateway.jobs import run_ocr_job
from aceh_rag.platform.gateway.wire import QueueCallback, WaitBudget, idempotency_key
from aceh_rag.platform.metrics import GATEWAY_REQUESTS

log = logging.getLogger(__name__)

HOLD_MARGIN_S = 15.0  # conventions §3.1: hold budget = client timeout − 15 s
HOLD_MIN_S = 5.0
_BACKPRESSURE_JITTER = 0.1  # wait up to 10 % longer than told, so waiters do not stampede


def hold_budget_s(client_timeout_s: float) -> float:
    return max(client_timeout_s - HOLD_MARGIN_S, HOLD_MIN_S)


@dataclass(slots=True)
class _Attempt:
    """Mutable state of one logical request across its retries."""

    ctx: CallContext
    operation: str
    wait: WaitBudget
    deadline: float | None
    on_backpressure: Callable[[GatewayBackpressure, float], None] | None
    max_retries: int = 3
    failures: int = 0
    waits: int = 0
    last_error: str = ""
    started: float = field(default_factory=time.monotonic)


class GatewayClient:
    def __init__(self, config: GatewayConfig, transport: httpx.BaseTransport | None = None):
        self.config = config
        self._http = httpx.Client(base_url=config.api_url, transport=transport)

    def close(self) -> None:
        self._http.close()

    # --- public operations --------------------------------------------------------------

    def embed(self, texts: list[str], *, ctx: CallContext | None = None) -> list[list[float]]:
        """Embeddings for ``texts`` in order, in batches of ``embed_batch_size``."""
        ctx = ctx or current_context()
        size = max(self.config.embed_batch_size, 1)
        vectors: list[list[float]] = []
        for start in range(0, len(texts), size):
            vectors.extend(self._embed_batch(texts[start : start + size], ctx))
        return vectors

    def ocr(
        self,
        pages: list[tuple[int, bytes]],
        *,
        ctx: CallContext | None = None,
        on_queue: QueueCallback | None = None,
    ) -> list[dict[str, Any]]:
        return run_ocr_job(self, pages, ctx=ctx or current_context(), on_queue=on_queue)

    # --- transport with the retry policy ------------------------------------------------

    def send(
        self,
        method: str,
        path: str,
        *,
        ctx: CallContext,
        operation: str,
        body: Any = None,
        idem_key: str | None = None,
        wait: WaitBudget | None = None,
        accept: Collection[int] = (),
        on_backpressure: Callable[[GatewayBackpressure, float], None] | None = None,
        max_retries: int | None = None,
    ) -> httpx.Response:
        """One logical request. Returns a 2xx response (or one whose status is in
        ``accept``); raises GatewayVerdict / GatewayBackpressure / GatewayUnavailable.
        ``max_retries`` overrides the configured retries for faults (0: fail at once)."""
        headers = self._headers(ctx, idem_key)
        timeout = self.config.interactive_timeout_s if ctx.interactive else self.config.timeout_s
        attempt = _Attempt(
            ctx=ctx,
            operation=operation,
            wait=wait or WaitBudget(self.config.queue_wait_ms),
            deadline=time.monotonic() + timeout if ctx.interactive else None,
            on_backpressure=on_backpressure,
            max_retries=self.config.max_retries if max_retries is None else max_retries,
        )
        while True:
            response = self._exchange(method, path, body, headers, attempt, timeout)
            if response is not None and (response.is_success or response.status_code in accept):
                return response
            self._handle_failure(response, attempt)

    def _exchange(
        self,
        method: str,
        path: str,
        body: Any,
        headers: dict[str, str],
        attempt: _Attempt,
        timeout: float,
    ) -> httpx.Response | None:
        if attempt.deadline is not None:
            timeout = max(attempt.deadline - time.monotonic(), 0.1)
        started = time.monotonic()
        try:
            response = self._http.request(method, path, json=body, headers=headers, timeout=timeout)
        except httpx.TransportError as exc:
            attempt.last_error = f"{type(exc).__name__}: {exc}"
            log.warning(
                "gateway %s %s failed after %.0f ms: %s (trace %s)",
                method, path, (time.monotonic() - started) * 1000, attempt.last_error,
                attempt.ctx.trace_id,
            )  # fmt: skip
            _count(attempt.operation, "network")
            return None
        level = logging.DEBUG if method == "GET" and response.is_success else logging.INFO
        log.log(
            level,
            "gateway %s %s → %s in %.0f ms (%s, trace %s)",
            method, path, response.status_code, (time.monotonic() - started) * 1000,
            attempt.ctx.traffic_class, attempt.ctx.trace_id,
        )  # fmt: skip
        _count(attempt.operation, _status_label(response.status_code))
        return response

    def _handle_failure(self, response: httpx.Response | None, attempt: _Attempt) -> None:
        """Sleep before the next try, or raise. Returns only when another try is due."""
        status = response.status_code if response is not None else None
        if response is not None and _is_backpressure(response):
            self._back_off_as_told(response, attempt)
            return
        if status is None or status == 408 or status >= 500:
            self._retry_after_fault(status, attempt)
            return
        assert response is not None
        verdict = verdict_from_response(response, attempt.operation)
        if verdict.negative_cache_hit:
            log.warning(
                "gateway %s: remembered refusal replayed (X-Negative-Cache: HIT, hits=%s): "
                "HTTP %s %s (trace %s)",
                attempt.operation, verdict.negative_cache_hits, status, verdict.reason,
                attempt.ctx.trace_id,
            )  # fmt: skip
        else:
            log.warning(
                "gateway %s: verdict HTTP %s %s (trace %s)",
                attempt.operation, status, verdict.reason, attempt.ctx.trace_id,
            )  # fmt: skip
        raise verdict

    def _back_off_as_told(self, response: httpx.Response, attempt: _Attempt) -> None:
        told = retry_after_seconds(response)
        depth = _int_header(response, "X-Queue-Depth")
        attempt.waits += 1
        # A missing or zero Retry-After must not turn into a tight loop against the pool.
        fallback = self._backoff_delay(attempt.waits)
        delay = fallback if told is None else max(told, self.config.backoff_base_s)
        if attempt.ctx.interactive:
            raise GatewayBackpressure(
                "Layanan model sedang penuh; pencarian memakai hasil leksikal saja.",
                status=response.status_code,
                retry_after_s=told,
                queue_depth=depth,
            )
        if delay * 1000 > attempt.wait.remaining_ms:
            raise GatewayBackpressure(
                f"Antrean GPU penuh lebih lama dari batas tunggu "
                f"({attempt.wait.limit_ms // 1000} detik); pekerjaan akan dicoba lagi nanti.",
                status=response.status_code,
                retry_after_s=told,
                queue_depth=depth,
                code="GPU_QUEUE_TIMEOUT",
            )
        pause = delay * (1 + random.uniform(0, _BACKPRESSURE_JITTER))
        log.info(
            "gateway %s: backpressure HTTP %s, waiting %.1f s (told %s, queue depth %s)",
            attempt.operation, response.status_code, pause, told, depth,
        )  # fmt: skip
        if attempt.on_backpressure is not None:
            info = GatewayBackpressure(
                "", status=response.status_code, retry_after_s=told, queue_depth=depth
            )
            attempt.on_backpressure(info, pause)
        time.sleep(pause)
        attempt.wait.spend(pause * 1000)

    def _retry_after_fault(self, status: int | None, attempt: _Attempt) -> None:
        attempt.failures += 1
        delay = self._backoff_delay(attempt.failures)
        past_deadline = (
            attempt.deadline is not None and time.monotonic() + delay >= attempt.deadline
        )
        if attempt.failures > attempt.max_retries or past_deadline:
            what = f"HTTP {status}" if status else (attempt.last_error or "network error")
            raise GatewayUnavailable(
                f"Gateway model tidak dapat dihubungi ({what}); akan dicoba lagi nanti.",
                status=status,
                detail=f"{attempt.operation}: {attempt.failures} failures, last {what}",
            )
        log.info(
            "gateway %s: %s, retry %d/%d in %.1f s",
            attempt.operation, status or "network error", attempt.failures,
            attempt.max_retries, delay,
        )  # fmt: skip
        time.sleep(delay)

    def _backoff_delay(self, failures: int) -> float:
        base = self.config.backoff_base_s * (2 ** max(failures - 1, 0))
        return min(base, self.config.backoff_max_s) * random.uniform(1.0, 1.2)

    def _headers(self, ctx: CallContext, idem_key: str | None) -> dict[str, str]:
        headers = ctx.headers(self.config.config_version, engine=self.config.engine)
        if idem_key:
            headers["Idempotency-Key"] = idem_key
        if ctx.interactive:
            # Our declaration of the client timeout (conventions §3.1); see docs/gateway.md.
            timeout = self.config.interactive_timeout_s
            headers["X-Client-Timeout-Ms"] = str(int(timeout * 1000))
            headers["X-Hold-Budget-Ms"] = str(int(hold_budget_s(timeout) * 1000))
        return headers

    def rerank(
        self, query: str, documents: list[str], *, top_n: int, ctx: CallContext | None = None
    ) -> list[tuple[int, float]]:
        """``[(index into documents, relevance score)]``, best first (docs/gateway.md).

        Search calls it interactively and never waits on it: a fault is not retried, it
        raises at once and the caller keeps its own order.
        """
        ctx = ctx or current_context()
        model = self.config.rerank_model
        payload = {"query": query, "documents": documents, "top_n": top_n}
        key = idempotency_key("rerank", model, self.config.config_version, payload)
        started = time.monotonic()
        response = self.send(
            "POST",
            "/rerank",
            ctx=ctx,
            operation="rerank",
            body={"model": model, **payload},
            idem_key=key,
            max_retries=0,
        )
        ranked = parse_rerank(response, len(documents))
        log.info(
            "gateway rerank: %d documents in %.0f ms (trace %s)",
            len(documents), (time.monotonic() - started) * 1000, ctx.trace_id,
        )  # fmt: skip
        return ranked

    def _embed_batch(self, texts: list[str], ctx: CallContext) -> list[list[float]]:
        model = self.config.embed_model
        key = idempotency_key("embed", model, self.config.config_version, {"input": texts})
        started = time.monotonic()
        response = self.send(
            "POST",
            "/embeddings",
            ctx=ctx,
            operation="embed",
            body={"model": model, "input": texts},
            idem_key=key,
        )
        vectors = parse_embeddings(response, len(texts))
        log.info(
            "gateway embed: %d texts in %.0f ms (trace %s)",
            len(texts), (time.monotonic() - started) * 1000, ctx.trace_id,
        )  # fmt: skip
        return vectors


def parse_embeddings(response: httpx.Response, expected: int) -> list[list[float]]:
    try:
        data = response.json()["data"]
        ordered = sorted(data, key=lambda item: int(item["index"]))
        vectors = [[float(x) for x in item["embedding"]] for item in ordered]
    except (ValueError, KeyError, TypeError) as exc:
        raise GatewayProtocolError(
            "Jawaban gateway embeddings tidak sesuai format.", code="GATEWAY_PROTOCOL"
        ) from exc
    if len(vectors) != expected:
        raise GatewayProtocolError(
            f"Gateway mengembalikan {len(vectors)} embedding untuk {expected} teks.",
            code="GATEWAY_PROTOCOL",
        )
    return vectors


def parse_rerank(response: httpx.Response, count: int) -> list[tuple[int, float]]:
    try:
        results = response.json()["results"]
        ranked = [(int(item["index"]), float(item["relevance_score"])) for item in results]
    except (ValueError, KeyError, TypeError) as exc:
        raise GatewayProtocolError(
            "Jawaban gateway rerank tidak sesuai format.", code="GATEWAY_PROTOCOL"
        ) from exc
    if any(not 0 <= index < count for index, _ in ranked):
        raise GatewayProtocolError(
            "Gateway rerank menunjuk dokumen yang tidak dikirim.", code="GATEWAY_PROTOCOL"
        )
    return sorted(ranked, key=lambda item: -item[1])


def retry_after_seconds(response: httpx.Response) -> float | None:
    """Retry-After as seconds (delta-seconds or an HTTP date), None when absent/invalid."""
    value = response.headers.get("Retry-After")
    if not value:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


def _is_backpressure(response: httpx.Response) -> bool:
    if response.status_code == 429:
        return True
    return response.status_code == 503 and "Retry-After" in response.headers


def _int_header(response: httpx.Response, name: str) -> int | None:
    value = response.headers.get(name, "").strip()
    return int(value) if value.isdigit() else None


def _status_label(status: int) -> str:
    return str(status) if status in (408, 429, 503) else f"{status // 100}xx"


def _count(operation: str, status: str) -> None:
    GATEWAY_REQUESTS.labels(operation, status).inc()


_client_lock = threading.Lock()
_client: tuple[GatewayConfig, GatewayClient] | None = None


def get_gateway_client() -> GatewayClient | None:
    """The shared client for the configured gateway, or None when the gateway is dormant."""
    global _client
    config = GatewayConfig.from_settings()
    if config is None:
        return None
    with _client_lock:
        if _client is None or _client[0] != config:
            if _client is not None:
                _client[1].close()
            _client = (config, GatewayClient(config))
        return _client[1]


def _require_client() -> GatewayClient:
    client = get_gateway_client()
    if client is None:
        raise RuntimeError("MODEL_GATEWAY_URL is not set; use the local engines")
    return client


def embed(texts: list[str], *, ctx: CallContext | None = None) -> list[list[float]]:
    return _require_client().embed(texts, ctx=ctx)


def ocr(
    pages: list[tuple[int, bytes]],
    *,
    ctx: CallContext | None = None,
    on_queue: QueueCallback | None = None,
) -> list[dict[str, Any]]:
    return _require_client().ocr(pages, ctx=ctx, on_queue=on_queue)
