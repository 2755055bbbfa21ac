"""OCR as a gateway batch job: submit, poll, and keep a person informed (conventions §3.3–§3.5).

Two clocks, never one: time spent ``queued`` (plus backpressure waits) is bounded by
GPU_QUEUE_WAIT_MS, and only time spent ``processing`` counts against the processing
timeout, because a queued job is not a slow job. A poll answered with 404 JOB_UNKNOWN
resubmits with the same Idempotency-Key, so the gateway can dedupe.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import math
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

import httpx

from aceh_rag.platform.context import CallContext
from aceh_rag.platform.gateway.config import GatewayConfig
from aceh_rag.platform.gateway.errors import (
    GatewayBackpressure,
    GatewayProtocolError,
    GatewayTimeout,
    GatewayUnavailable,
    GatewayVerdict,
    verdict_from_response,
)
from aceh_rag.platform.gateway.wire import QueueCallback, WaitBudget, idempotency_key

log = logging.getLogger(__name__)

PAGE_MIME = "image/png"
_GATEWAY_STATUSES = frozenset({"queued", "processing", "completed", "failed"})


class JobStatus(StrEnum):
    QUEUED = "queued"
    PROCESSING = "processing"
    COMPLETED = "completed"
    FAILED = "failed"
    # Not gateway statuses: what the client itself is doing, reported to on_queue.
    BACKPRESSURE = "backpressure"
    RESUBMITTED = "resubmitted"


@dataclass(frozen=True, slots=True)
class QueueState:
    """What on_queue receives: enough for the job row to tell a person where things stand.

    Data only: the words are the app's (``ingestion.queue_text.gateway_queue_text``)."""

    status: JobStatus
    job_id: str | None = None
    position: int | None = None
    eta_ms: int | None = None
    stage: str | None = None
    progress: float | None = None
    queue_depth: int | None = None
    retry_after_s: float | None = None
    waited_ms: int = 0


def ocr_payload(pages: list[tuple[int, bytes]]) -> list[dict[str, Any]]:
    return [
        {"page": page, "mime": PAGE_MIME, "data_b64": base64.b64encode(data).decode("ascii")}
        for page, data in pages
    ]


def ocr_idempotency_key(model: str, config_version: str, pages: list[tuple[int, bytes]]) -> str:
    # Page digests stand in for the bytes: the same key, without hashing megabytes of base64.
    digests = [
        {"page": page, "mime": PAGE_MIME, "sha256": hashlib.sha256(data).hexdigest()}
        for page, data in pages
    ]
    return idempotency_key("ocr", model, config_version, {"pages": digests})


class JobClient(Protocol):
    """What an OCR job needs of :class:`~aceh_rag.platform.gateway.client.GatewayClient`."""

    config: GatewayConfig

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
    ) -> httpx.Response: ...


class _OcrJob:
    """One OCR job's life: submission, polling, the two clocks and the resubmissions."""

    def __init__(
        self,
        client: JobClient,
        pages: list[tuple[int, bytes]],
        ctx: CallContext,
        on_queue: QueueCallback | None,
    ) -> None:
        config = client.config
        self.client = client
        self.ctx = ctx
        self.on_queue = on_queue
        self.body = {
            "model": config.ocr_model,
            "operation": "ocr",
            "input": {"pages": ocr_payload(pages)},
        }
        self.key = ocr_idempotency_key(config.ocr_model, config.config_version, pages)
        self.wait = WaitBudget(config.queue_wait_ms)
        self.processing_s = 0.0
        self.resubmits = 0
        self.job_id: str | None = None

    def run(self) -> list[dict[str, Any]]:
        started = time.monotonic()
        state = self._submit()
        observed = time.monotonic()
        while True:
            status = _status(state)
            if status is JobStatus.COMPLETED:
                return self._finish(state, started)
            if status is JobStatus.FAILED:
                raise self._failure(state)
            self._report(state, status)
            self._sleep(status)
            told_before = self.wait.spent_ms
            state = self._poll()
            now = time.monotonic()
            # Backpressure pauses inside the poll are already charged to the wait budget.
            told_ms = self.wait.spent_ms - told_before
            self._advance_clocks(status, (now - observed) * 1000 - told_ms)
            observed = now

    def _submit(self) -> dict[str, Any]:
        response = self.client.send(
            "POST",
            "/jobs",
            ctx=self.ctx,
            operation="ocr",
            body=self.body,
            idem_key=self.key,
            wait=self.wait,
            on_backpressure=self._report_backpressure,
        )
        state = _json(response)
        self.job_id = str(state.get("job_id") or "")
        if not self.job_id:
            raise GatewayProtocolError("Gateway tidak memberi job_id untuk OCR.", code="NO_JOB_ID")
        log.info(
            "gateway ocr: job %s submitted (%s, position %s, eta %s ms, key %s)",
            self.job_id, state.get("status"), state.get("queue_position"),
            state.get("eta_ms"), self.key,
        )  # fmt: skip
        return state

    def _poll(self) -> dict[str, Any]:
        response = self.client.send(
            "GET",
            f"/jobs/{self.job_id}",
            ctx=self.ctx,
            operation="ocr",
            wait=self.wait,
            accept={404},
            on_backpressure=self._report_backpressure,
        )
        if response.status_code != 404:
            return _json(response)
        if _error_code(response) != "JOB_UNKNOWN":
            raise verdict_from_response(response, "ocr")
        return self._resubmit()

    def _resubmit(self) -> dict[str, Any]:
        self.resubmits += 1
        if self.resubmits > self.client.config.max_retries + 1:
            raise GatewayUnavailable(
                "Gateway berulang kali kehilangan pekerjaan OCR; akan dicoba lagi nanti.",
                status=404,
                detail=f"JOB_UNKNOWN {self.resubmits} times, key {self.key}",
            )
        log.warning(
            "gateway ocr: job %s unknown to the gateway, resubmitting with key %s (%d)",
            self.job_id, self.key, self.resubmits,
        )  # fmt: skip
        # The lost job's processing never finished; the clock restarts with the new one.
        self.processing_s = 0.0
        state = self._submit()
        self._notify(QueueState(JobStatus.RESUBMITTED, job_id=self.job_id, **_queue_fields(state)))
        return state

    def _advance_clocks(self, status: JobStatus, elapsed_ms: float) -> None:
        config = self.client.config
        if status is JobStatus.QUEUED:
            self.wait.spend(elapsed_ms)
            if self.wait.remaining_ms <= 0:
                raise GatewayTimeout(
                    f"Pekerjaan OCR menunggu di antrean GPU lebih dari "
                    f"{_minutes(config.queue_wait_ms)} menit; akan dicoba lagi nanti.",
                    code="GPU_QUEUE_TIMEOUT",
                    detail=f"job {self.job_id} queued {self.wait.spent_ms:.0f} ms",
                )
        elif status is JobStatus.PROCESSING:
            self.processing_s += elapsed_ms / 1000
            if self.processing_s > config.ocr_processing_timeout_s:
                raise GatewayTimeout(
                    f"OCR di gateway melebihi batas waktu pemrosesan "
                    f"({config.ocr_processing_timeout_s:.0f} detik); akan dicoba lagi nanti.",
                    code="OCR_PROCESSING_TIMEOUT",
                    detail=f"job {self.job_id} processing {self.processing_s:.1f} s",
                )

    def _sleep(self, status: JobStatus) -> None:
        pause = self.client.config.poll_interval_s
        if status is JobStatus.QUEUED:
            # Wake up when the queue budget runs out rather than a whole interval later.
            pause = min(pause, self.wait.remaining_ms / 1000)
        time.sleep(max(pause, 0.0))

    def _report(self, state: dict[str, Any], status: JobStatus) -> None:
        fields = _queue_fields(state)
        waited = int(self.wait.spent_ms)
        self._notify(QueueState(status, job_id=self.job_id, waited_ms=waited, **fields))

    def _report_backpressure(self, info: GatewayBackpressure, pause_s: float) -> None:
        self._notify(
            QueueState(
                JobStatus.BACKPRESSURE,
                job_id=self.job_id,
                queue_depth=info.queue_depth,
                retry_after_s=pause_s,
                waited_ms=int(self.wait.spent_ms),
            )
        )

    def _notify(self, state: QueueState) -> None:
        if self.on_queue is None:
            return
        try:
            self.on_queue(state)
        except Exception:
            # Showing the queue is a courtesy; it must never fail the OCR itself.
            log.warning("gateway ocr: on_queue callback failed", exc_info=True)

    def _finish(self, state: dict[str, Any], started: float) -> list[dict[str, Any]]:
        result = state.get("result")
        pages = result.get("pages") if isinstance(result, dict) else None
        if not isinstance(pages, list):
            raise GatewayProtocolError(
                "Gateway menyelesaikan OCR tanpa hasil halaman.", code="GATEWAY_PROTOCOL"
            )
        log.info(
            "gateway ocr: job %s completed, %d pages in %.0f ms "
            "(queued %.0f ms, processing %.1f s, resubmits %d)",
            self.job_id, len(pages), (time.monotonic() - started) * 1000,
            self.wait.spent_ms, self.processing_s, self.resubmits,
        )  # fmt: skip
        return pages

    def _failure(self, state: dict[str, Any]) -> GatewayVerdict:
        raw = state.get("error")
        error: dict[str, Any] = raw if isinstance(raw, dict) else {}
        message = str(error.get("message") or "OCR gagal di gateway tanpa keterangan.")
        code = str(error.get("code") or "OCR_FAILED")
        log.warning("gateway ocr: job %s failed: %s %s", self.job_id, code, message)
        return GatewayVerdict(
            message,
            status=None,
            code=code,
            upstream_body=str(state.get("error")),
            detail=f"ocr job {self.job_id} failed: {code}",
        )


def run_ocr_job(
    client: JobClient,
    pages: list[tuple[int, bytes]],
    *,
    ctx: CallContext,
    on_queue: QueueCallback | None = None,
) -> list[dict[str, Any]]:
    """OCR ``pages`` (page number, PNG bytes) through the gateway; returns the result pages
    ``[{"page": 1, "lines": [{"text": ..., "confidence": ...}]}]``."""
    if not pages:
        return []
    return _OcrJob(client, pages, ctx, on_queue).run()


def _status(state: dict[str, Any]) -> JobStatus:
    value = str(state.get("status"))
    if value not in _GATEWAY_STATUSES:
        raise GatewayProtocolError(
            f"Status pekerjaan gateway tidak dikenal: {state.get('status')!r}",
            code="GATEWAY_PROTOCOL",
        )
    return JobStatus(value)


def _queue_fields(state: dict[str, Any]) -> dict[str, Any]:
    progress = state.get("progress")
    return {
        "position": _opt_int(state.get("queue_position")),
        "eta_ms": _opt_int(state.get("eta_ms")),
        "stage": state.get("stage") if isinstance(state.get("stage"), str) else None,
        "progress": float(progress) if isinstance(progress, int | float) else None,
    }


def _opt_int(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _json(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError as exc:
        raise GatewayProtocolError("Jawaban gateway bukan JSON.", code="GATEWAY_PROTOCOL") from exc
    if not isinstance(body, dict):
        raise GatewayProtocolError("Jawaban gateway bukan objek JSON.", code="GATEWAY_PROTOCOL")
    return body


def _error_code(response: httpx.Response) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    code = body.get("code")
    if code is None and isinstance(body.get("error"), dict):
        code = body["error"].get("code")
    return str(code) if code is not None else None


def _minutes(ms: int) -> int:
    return max(1, math.ceil(ms / 60_000))
