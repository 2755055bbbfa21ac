"""Audit SDK for in-process models (conventions §4.5 and §5): one event per AI call.

Local OCR and local embeddings cannot be proxied by the gateway, so they report themselves:
each call becomes a schema-v1 event on the Redis stream ``AUDIT_STREAM``. Auditing must
never slow down or fail the work it describes, so:

- :func:`emit_audit` only puts the event on a bounded in-memory queue; a daemon thread
  encodes it (zstd bodies, capped at 10 MB) and XADDs it.
- Redis unreachable (or the queue full): the event is spooled to ``AUDIT_SPOOL_DIR``; the
  sender retries every ``retry_interval_s`` and replays the spool oldest first, and a new
  process replays what an old one left behind.
- The spool is capped at ``AUDIT_SPOOL_MAX_BYTES``: near the cap events lose their bodies
  but keep their metadata; past it they are dropped, counted in
  ``aceh_rag_audit_events_dropped_total`` and logged at most once a minute.
- ``AUDIT_REDIS_URL`` unset: dormant. No thread, no files, no encoding.
"""

from __future__ import annotations

import atexit
import hashlib
import itertools
import json
import logging
import queue
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import redis
import zstandard
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

from aceh_rag.platform.audit_spool import SPOOL_MAX_BYTES, Fields, Spool, SpoolFull
from aceh_rag.platform.context import ENGINE, CallContext, current_context
from aceh_rag.platform.metrics import (
    AUDIT_BODIES_DROPPED,
    AUDIT_EVENTS_DROPPED,
    AUDIT_SPOOL_BYTES,
)

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
BODY_CAP_BYTES = 10 * 1024 * 1024
BODY_CAP_REASON = "body_cap"
# At most one "events dropped" warning per this many seconds, with the count since the last.
DROP_LOG_INTERVAL_S = 60.0


class DropReason(StrEnum):
    SPOOL_FULL = "spool_full"
    SPOOL_ERROR = "spool_error"  # the disk refused the write
    ENCODE_ERROR = "encode_error"
    EMIT_ERROR = "emit_error"


class AuditStatus(StrEnum):
    OK = "ok"
    ERROR = "error"


class Operation(StrEnum):
    OCR = "ocr"
    EMBED = "embed"
    SEARCH = "search"
    JOB = "job"
    JOB_CHILD = "job_child"


@dataclass(frozen=True, slots=True)
class AuditConfig:
    redis_url: str
    spool_dir: Path
    stream: str = "ahu.ai.audit"
    engine: str = ENGINE
    config_version: str = "1"
    queue_size: int = 1000
    retry_interval_s: float = 5.0
    body_cap_bytes: int = BODY_CAP_BYTES
    socket_timeout_s: float = 2.0
    spool_max_bytes: int = SPOOL_MAX_BYTES

    @classmethod
    def from_settings(cls) -> AuditConfig | None:
        url = settings.AUDIT_REDIS_URL
        if not url:
            return None
        return cls(
            redis_url=url,
            spool_dir=Path(settings.AUDIT_SPOOL_DIR),
            stream=settings.AUDIT_STREAM,
            engine=settings.ENGINE_NAME,
            config_version=str(settings.GATEWAY_CONFIG_VERSION),
            queue_size=settings.AUDIT_QUEUE_SIZE,
            retry_interval_s=settings.AUDIT_RETRY_SECONDS,
            spool_max_bytes=settings.AUDIT_SPOOL_MAX_BYTES,
        )


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(slots=True)
class AuditEvent:
    """One AI call. The caller fills in what it knows; the rest defaults sensibly."""

    operation: str
    model: str
    ctx: CallContext = field(default_factory=current_context)
    status: str = AuditStatus.OK
    error_code: str | None = None
    upstream: str = "in-process"
    upstream_class: str = "on_prem"
    queue_ms: float = 0.0
    upstream_ms: float | None = None
    total_ms: float = 0.0
    tokens_in: int | None = None
    tokens_out: int | None = None
    pages: int | None = None
    items: int | None = None  # additive field: texts embedded, images read, ...
    request_body: Any = None
    response_body: Any = None
    event_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    ts: str = field(default_factory=_utc_now)


def encode_event(event: AuditEvent, config: AuditConfig) -> Fields:
    """The stream entry: every §5 field as a string, bodies as zstd bytes."""
    ctx = event.ctx
    upstream_ms = event.upstream_ms if event.upstream_ms is not None else event.total_ms
    fields: Fields = {
        "event_id": event.event_id,
        "schema_ver": str(SCHEMA_VERSION),
        "ts": event.ts,
        "engine": config.engine,
        "surface": ctx.surface.value,
        "user_id": ctx.user_id or "",
        "trace_id": ctx.trace_id,
        "upstream": event.upstream,
        "model": event.model,
        "upstream_class": event.upstream_class,
        "traffic_class": ctx.traffic_class.value,
        "operation": str(event.operation),
        "status": str(event.status),
        "error_code": event.error_code or "",
        "queue_ms": str(round(event.queue_ms)),
        "upstream_ms": str(round(upstream_ms)),
        "total_ms": str(round(event.total_ms)),
        "tokens_in": _opt(event.tokens_in),
        "tokens_out": _opt(event.tokens_out),
        "doc_hash": ctx.doc_hash or "",
        "pages": _opt(event.pages),
        "job_id": ctx.job_id or "",
        "parent_job_id": ctx.parent_job_id or "",
        "config_version": config.config_version,
        "items": _opt(event.items),
        "body_encoding": "zstd",
    }
    fields.update(_body_fields("request_body", event.request_body, config.body_cap_bytes))
    fields.update(_body_fields("response_body", event.response_body, config.body_cap_bytes))
    truncated = "true" in (fields["request_body_truncated"], fields["response_body_truncated"])
    # Additive: why a body is missing or cut (the spool sets "spool_cap" when it drops them).
    fields["truncation_reason"] = BODY_CAP_REASON if truncated else ""
    return fields


def _opt(value: int | None) -> str:
    return "" if value is None else str(value)


def _body_bytes(body: Any) -> bytes:
    if body is None:
        return b""
    if isinstance(body, bytes | bytearray | memoryview):
        return bytes(body)
    if isinstance(body, str):
        return body.encode()
    return json.dumps(body, ensure_ascii=False, default=str).encode()


def _body_fields(name: str, body: Any, cap: int) -> Fields:
    """Capped at ``cap`` bytes before compression; a truncated body keeps the full content's
    size and sha256 so it can still be matched against the original."""
    raw = _body_bytes(body)
    kept = raw[:cap]
    return {
        name: zstandard.ZstdCompressor(level=3).compress(kept),
        f"{name}_bytes": str(len(raw)),
        f"{name}_truncated": "true" if len(kept) < len(raw) else "false",
        f"{name}_sha256": hashlib.sha256(raw).hexdigest(),
    }


@dataclass(order=True, slots=True)
class _Queued:
    emitted_ns: int
    seq: int
    event: AuditEvent = field(compare=False)


class Auditor:
    """The background sender. One per process; see :func:`get_auditor`."""

    def __init__(self, config: AuditConfig) -> None:
        self.config = config
        self.spool = Spool(config.spool_dir, config.spool_max_bytes)
        self._queue: queue.Queue[_Queued] = queue.Queue(maxsize=config.queue_size)
        self._seq = itertools.count()
        self._stop = threading.Event()
        self._redis = redis.Redis.from_url(
            config.redis_url,
            socket_timeout=config.socket_timeout_s,
            socket_connect_timeout=config.socket_timeout_s,
            retry=Retry(NoBackoff(), 0),
        )
        # Replay whatever a previous run left behind as soon as the thread starts.
        self._next_replay = 0.0
        self._redis_down = False
        self._drops_unlogged = 0
        self._last_drop_log = -DROP_LOG_INTERVAL_S
        self._drop_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="audit-sender", daemon=True)
        self._thread.start()

    # --- producer side (any thread; never blocks, never raises) -------------------------

    def emit(self, event: AuditEvent) -> None:
        try:
            item = _Queued(time.time_ns(), next(self._seq), event)
            try:
                self._queue.put_nowait(item)
            except queue.Full:
                log.warning(
                    "audit: sender queue full (%d), spooling %s",
                    self._queue.maxsize, event.event_id,
                )  # fmt: skip
                self._spool_item(item)
        except Exception:
            # Auditing must never fail the call it describes.
            log.exception("audit: could not emit event %s", getattr(event, "event_id", "?"))
            self._dropped(DropReason.EMIT_ERROR)

    @property
    def queued(self) -> int:
        """Events emitted but not yet handled by the sender (neither sent nor spooled)."""
        return self._queue.unfinished_tasks

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every emitted event is in Redis; False if some are still pending
        (queued or spooled) when ``timeout`` runs out."""
        deadline = time.monotonic() + timeout
        self._next_replay = 0.0
        while time.monotonic() < deadline:
            if self.queued == 0 and not self.spool.has_pending():
                return True
            time.sleep(0.02)
        return False

    def close(self, timeout: float = 2.0) -> None:
        """Stop the sender; whatever it could not send by then is spooled, not lost."""
        self._stop.set()
        self._thread.join(timeout)
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            self._spool_item(item)
            self._queue.task_done()
        self._redis.close()

    # --- sender thread ------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                item = self._queue.get(timeout=0.1)
            except queue.Empty:
                item = None
            if item is not None:
                try:
                    self._deliver(item)
                finally:
                    self._queue.task_done()
            if time.monotonic() >= self._next_replay and self.spool.has_pending():
                self._replay()

    def _deliver(self, item: _Queued) -> None:
        # Anything already spooled is older, so a new event queues up behind it on disk.
        if self._redis_down or self.spool.has_pending():
            self._spool_item(item)
            return
        fields = self._encode(item)
        if fields is None:
            return
        try:
            self._xadd(fields)
        except redis.RedisError as exc:
            self._mark_down(exc)
            self._spool_fields(item, fields)

    def _replay(self) -> None:
        started = time.monotonic()
        try:
            sent = self.spool.replay(self._xadd)
        except (redis.RedisError, OSError) as exc:
            self._mark_down(exc)
            return
        if sent:
            log.info(
                "audit: replayed %d spooled events in %.0f ms",
                sent, (time.monotonic() - started) * 1000,
            )  # fmt: skip
            AUDIT_SPOOL_BYTES.set(self.spool.used_bytes())
        self._redis_down = False

    def _xadd(self, fields: Fields) -> None:
        self._redis.xadd(self.config.stream, fields)  # type: ignore[arg-type]

    def _mark_down(self, exc: Exception) -> None:
        if not self._redis_down:
            log.warning("audit: stream unavailable, spooling to %s: %s", self.spool.directory, exc)
        self._redis_down = True
        self._next_replay = time.monotonic() + self.config.retry_interval_s

    def _spool_item(self, item: _Queued) -> None:
        fields = self._encode(item)
        if fields is not None:
            self._spool_fields(item, fields)

    def _spool_fields(self, item: _Queued, fields: Fields) -> None:
        try:
            spooled = self.spool.write(item.emitted_ns, item.seq, fields)
        except SpoolFull:
            self._dropped(DropReason.SPOOL_FULL)
            return
        except OSError:
            log.exception("audit: could not spool event %s", item.event.event_id)
            self._dropped(DropReason.SPOOL_ERROR)
            return
        if spooled.bodies_dropped:
            AUDIT_BODIES_DROPPED.inc()
        AUDIT_SPOOL_BYTES.set(self.spool.used_bytes())

    def _encode(self, item: _Queued) -> Fields | None:
        try:
            return encode_event(item.event, self.config)
        except Exception:
            log.exception("audit: could not encode event %s", item.event.event_id)
            self._dropped(DropReason.ENCODE_ERROR)
            return None

    def _dropped(self, reason: DropReason) -> None:
        """Count a lost event; warn at most once per DROP_LOG_INTERVAL_S with the tally."""
        AUDIT_EVENTS_DROPPED.labels(reason=reason.value).inc()
        with self._drop_lock:
            self._drops_unlogged += 1
            now = time.monotonic()
            if now - self._last_drop_log < DROP_LOG_INTERVAL_S:
                return
            count, self._drops_unlogged = self._drops_unlogged, 0
            self._last_drop_log = now
        log.warning(
            "audit: dropped %d events (last reason %s); spool %s holds %d of %d bytes",
            count, reason.value, self.spool.directory, self.spool.used_bytes(),
            self.config.spool_max_bytes,
        )  # fmt: skip


_auditor_lock = threading.Lock()
_auditor: Auditor | None = None
_dormant_checked = False


def get_auditor() -> Auditor | None:
    """The process's auditor, started on first use; None when AUDIT_REDIS_URL is unset."""
    global _auditor, _dormant_checked
    if _auditor is not None or _dormant_checked:
        return _auditor
    with _auditor_lock:
        if _auditor is None and not _dormant_checked:
            config = AuditConfig.from_settings()
            if config is None:
                _dormant_checked = True
                return None
            _auditor = Auditor(config)
            atexit.register(_auditor.close)
    return _auditor


def reset_auditor() -> None:
    """Close the shared auditor and forget the dormancy decision (tests, settings reloads)."""
    global _auditor, _dormant_checked
    with _auditor_lock:
        if _auditor is not None:
            _auditor.close()
        _auditor = None
        _dormant_checked = False


def auditing() -> bool:
    """True when events go anywhere; callers skip building costly bodies otherwise."""
    return get_auditor() is not None


def emit_audit(event: AuditEvent, auditor: Auditor | None = None) -> None:
    target = auditor or get_auditor()
    if target is not None:
        target.emit(event)


def emit_model_call(
    *,
    operation: str,
    model: str,
    total_ms: float,
    status: str = AuditStatus.OK,
    **fields: Any,
) -> None:
    """Keyword form of :func:`emit_audit` for a call that was timed elsewhere. Extra
    keywords are :class:`AuditEvent` fields (``upstream``, ``items``, ``error_code``, ...)."""
    if get_auditor() is None:
        return
    emit_audit(
        AuditEvent(operation=operation, model=model, total_ms=total_ms, status=status, **fields)
    )


@contextmanager
def audit_call(
    operation: str,
    model: str,
    *,
    request_body: Any = None,
    pages: int | None = None,
    ctx: CallContext | None = None,
    auditor: Auditor | None = None,
) -> Iterator[AuditEvent]:
    """Time the block and emit one event for it, ``status=error`` if it raises.

    The block may set ``response_body``, ``tokens_in``/``tokens_out``, ``pages`` and
    ``queue_ms`` (time spent waiting for the model, e.g. a lock) on the yielded event.
    """
    event = AuditEvent(
        operation=operation,
        model=model,
        ctx=ctx or current_context(),
        request_body=request_body,
        pages=pages,
    )
    started = time.perf_counter()
    try:
        yield event
    except BaseException as exc:
        event.status = AuditStatus.ERROR
        event.error_code = event.error_code or str(getattr(exc, "code", "") or type(exc).__name__)
        raise
    finally:
        event.total_ms = (time.perf_counter() - started) * 1000
        if event.upstream_ms is None:
            event.upstream_ms = max(event.total_ms - event.queue_ms, 0.0)
        emit_audit(event, auditor)
