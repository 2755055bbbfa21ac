"""Per-client rate limits: a sustained rate with a burst, counted in Redis or in process.

A budget is ``API_RATE_LIMIT`` (a rate in the ``limits`` library's notation: "10/second",
"600/minute") with ``API_RATE_BURST`` calls that may be spent at once. It is counted as a
moving window of ``burst`` calls over ``ceil(burst / rate)`` seconds: 10/second with a
burst of 30 is "30 calls in any 3 seconds" — 30 at once, then 10 a second on average.
Searches (every read, MCP included) and uploads have separate budgets. Counters live in
Redis when ``REDIS_URL`` is set (shared by every web worker), else in this process.

Over budget, the caller gets the platform's backpressure answer: 429 with ``Retry-After``
(whole seconds until a call is free again). Refusals are counted per client in
``aceh_rag_api_rate_limited_total``.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from django.conf import settings
from limits import RateLimitItem, RateLimitItemPerSecond, parse
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from aceh_rag.platform.metrics import API_RATE_LIMITED

log = logging.getLogger(__name__)

OFF = "off"
_NAMESPACE = "aceh-rag-api"


class Budget(StrEnum):
    SEARCH = "search"
    UPLOAD = "upload"


@dataclass(frozen=True, slots=True)
class Refusal:
    retry_after: int  # seconds
    limit: str  # the budget as configured, for the error body


def window(rate: str, burst: int) -> RateLimitItem | None:
    """The moving window for ``rate`` with ``burst`` (None: the budget is off)."""
    if rate.strip().lower() in (OFF, "", "0"):
        return None
    item = parse(rate)
    per_second = item.amount / (item.multiples * item.GRANULARITY.seconds)
    seconds = max(1, math.ceil(burst / per_second))
    return RateLimitItemPerSecond(burst, seconds)


def _configured(budget: Budget) -> tuple[str, int]:
    if budget == Budget.UPLOAD:
        return settings.API_UPLOAD_RATE_LIMIT, settings.API_UPLOAD_RATE_BURST
    return settings.API_RATE_LIMIT, settings.API_RATE_BURST


_limiters: dict[str, MovingWindowRateLimiter] = {}
_lock = threading.Lock()


def storage_url() -> str:
    return settings.REDIS_URL or "memory://"


def limiter() -> MovingWindowRateLimiter:
    """One limiter per storage URL (settings may change in tests)."""
    url = storage_url()
    with _lock:
        found = _limiters.get(url)
        if found is None:
            # A sync URL (redis://, memory://) gives a sync storage.
            storage = cast(Storage, storage_from_string(url))
            found = _limiters[url] = MovingWindowRateLimiter(storage)
        return found


def check(client: str, budget: Budget) -> Refusal | None:
    """Count one call of ``client`` against ``budget``; a Refusal when it is over."""
    rate, burst = _configured(budget)
    item = window(rate, burst)
    if item is None:
        return None
    strategy = limiter()
    if strategy.hit(item, _NAMESPACE, budget.value, client):
        return None
    stats = strategy.get_window_stats(item, _NAMESPACE, budget.value, client)
    retry_after = max(1, math.ceil(stats.reset_time - time.time()))
    API_RATE_LIMITED.labels(token=client, budget=budget.value).inc()
    log.info("rate limit: %s over its %s budget, retry after %s s", client, budget, retry_after)
    return Refusal(retry_after=retry_after, limit=f"{rate} (burst {burst})")


def reset() -> None:
    """Forget every counter (tests)."""
    with _lock:
        for found in _limiters.values():
            found.storage.reset()
