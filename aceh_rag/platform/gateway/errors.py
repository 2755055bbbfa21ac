"""What the gateway client raises. These stand alone: the apps map them to their own errors
(``ingestion.pipeline.base.stage_error``), so the platform imports no app.

A 4xx is a verdict on the input (:class:`GatewayVerdict`, permanent, never retried, the
upstream's own words kept as the reason). Backpressure and outages are transient, so the
job is deferred and search degrades, but never in a way that invites a retry storm.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

# How much of an upstream body we keep for diagnostics on the exception.
_DETAIL_CHARS = 2000


class GatewayError(Exception):
    """Anything the gateway client raises. ``permanent``: retrying cannot help.

    ``reason`` is what a person reads (Indonesian, or the upstream's own words); ``code`` is
    stable for logs and tests; ``detail`` is for diagnostics only.
    """

    permanent: bool = False

    def __init__(self, reason: str, *, code: str = "GATEWAY_ERROR", detail: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.detail = detail


class GatewayVerdict(GatewayError):
    """The gateway (or its upstream) refused the input: retrying cannot help."""

    permanent = True

    def __init__(
        self,
        reason: str,
        *,
        status: int | None,
        code: str,
        upstream_body: str = "",
        negative_cache_hit: bool = False,
        negative_cache_hits: int | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(reason, code=code, detail=detail or upstream_body[:_DETAIL_CHARS] or None)
        self.status = status
        self.upstream_reason = reason
        self.upstream_body = upstream_body
        self.negative_cache_hit = negative_cache_hit
        self.negative_cache_hits = negative_cache_hits


class GatewayBackpressure(GatewayError):
    """429/503 + Retry-After: the gateway is saturated. Interactive callers degrade."""

    def __init__(
        self,
        reason: str,
        *,
        status: int,
        retry_after_s: float | None,
        queue_depth: int | None,
        code: str = "GATEWAY_BACKPRESSURE",
    ) -> None:
        super().__init__(reason, code=code, detail=f"HTTP {status}")
        self.status = status
        self.retry_after_s = retry_after_s
        self.queue_depth = queue_depth


class GatewayUnavailable(GatewayError):
    """5xx, 408 or a network error that outlasted the bounded retries."""

    def __init__(self, reason: str, *, status: int | None, detail: str | None = None) -> None:
        code = f"HTTP_{status}" if status else "NETWORK"
        super().__init__(reason, code=code, detail=detail)
        self.status = status


class GatewayTimeout(GatewayError):
    """A job waited in the GPU queue past GPU_QUEUE_WAIT_MS, or processed too long."""


class GatewayProtocolError(GatewayError):
    """A 2xx whose body does not match our wire format: a gateway fault, not the input's."""


def upstream_reason(response: httpx.Response) -> str:
    """The upstream's own words, from the usual JSON error shapes or the plain body."""
    text = response.text.strip()
    try:
        body: Any = json.loads(text) if text else None
    except ValueError:
        body = None
    found = _reason_from_json(body) if body is not None else None
    if found:
        return found
    if text and not text.startswith(("{", "[")):
        return text[:500]
    return f"Gateway model menolak permintaan (HTTP {response.status_code})"


def _reason_from_json(body: Any) -> str | None:
    if not isinstance(body, dict):
        return None
    error = body.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"]).strip() or None
    for key in ("message", "detail", "error", "reason"):
        value = body.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, list) and value:
            return "; ".join(_describe(item) for item in value)
    return None


def _describe(item: Any) -> str:
    if isinstance(item, dict) and "msg" in item:
        return str(item["msg"])
    return str(item)


def verdict_from_response(response: httpx.Response, operation: str) -> GatewayVerdict:
    status = response.status_code
    replayed = response.headers.get("X-Negative-Cache", "").upper() == "HIT"
    hits = response.headers.get("X-Negative-Cache-Hits")
    reason = upstream_reason(response)
    return GatewayVerdict(
        reason,
        status=status,
        # Same split as the platform's audit: a remembered refusal is not a live incident.
        code=f"REFUSED_HTTP_{status}" if replayed else f"HTTP_{status}",
        upstream_body=response.text,
        negative_cache_hit=replayed,
        negative_cache_hits=int(hits) if hits and hits.isdigit() else None,
        detail=f"{operation}: HTTP {status}; {response.text[:_DETAIL_CHARS]}",
    )
