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

A rate alone does not keep one client from starving the others: 10 searches a second at
~100 ms each, or a burst of 30 at once, is a whole worker's CPU. So each client also has
``API_CONCURRENCY`` calls in flight at most (:func:`in_flight`); one more is refused with
429 and ``Retry-After: 1`` at once, before it waits for a thread. The slots live in Redis
(a sorted set of call ids, each dropped after ``WEB_TIMEOUT`` should its worker die) or in
this process.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

import anyio.to_thread
import redis
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


IN_FLIGHT = "in_flight"  # the metric's budget label for a refusal by API_CONCURRENCY


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


# --- calls in flight -------------------------------------------------------------------------

_IN_FLIGHT_RETRY_AFTER = 1  # a slot frees when one call ends: well under a second
_local_in_flight: Counter[str] = Counter()
_redis_clients: dict[str, redis.Redis] = {}


def _redis() -> redis.Redis:
    url = str(settings.REDIS_URL)
    with _lock:
        client = _redis_clients.get(url)
        if client is None:
            client = _redis_clients[url] = redis.Redis.from_url(url)
        return client


def _enter_redis(client: str, cap: int) -> str | None:
    key = f"{_NAMESPACE}:in-flight:{client}"
    call = uuid.uuid4().hex
    now = time.time()
    pipe = _redis().pipeline()
    pipe.zremrangebyscore(key, "-inf", now - settings.WEB_TIMEOUT_SECONDS)
    pipe.zadd(key, {call: now})
    pipe.zcard(key)
    pipe.expire(key, settings.WEB_TIMEOUT_SECONDS)
    held = int(pipe.execute()[2])
    if held <= cap:
        return call
    _redis().zrem(key, call)
    return None


def _enter_local(client: str, cap: int) -> str | None:
    with _lock:
        if _local_in_flight[client] >= cap:
            return None
        _local_in_flight[client] += 1
        return "local"


def _leave(client: str, call: str) -> None:
    if settings.REDIS_URL:
        _redis().zrem(f"{_NAMESPACE}:in-flight:{client}", call)
        return
    with _lock:
        _local_in_flight[client] -= 1
        if _local_in_flight[client] <= 0:
            del _local_in_flight[client]


class Slot:
    """One of a client's calls in flight; ``release`` it when the call ends (twice is
    harmless: the gate releases before the last byte, and again in ``finally``)."""

    __slots__ = ("call", "client")

    def __init__(self, client: str, call: str) -> None:
        self.client = client
        self.call = call  # "" when API_CONCURRENCY is off or released: nothing to release

    def release(self) -> None:
        call, self.call = self.call, ""
        if call:
            _leave(self.client, call)


async def serve_holding(slot: Slot, app: Any, scope: Any, receive: Any, send: Any) -> None:
    """Run the ASGI ``app`` with ``slot`` held. It is released just before the response's
    last body message goes out, so a client's next call never finds it still taken."""

    async def sending(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            await anyio.to_thread.run_sync(slot.release)
        await send(message)

    try:
        await app(scope, receive, sending)
    finally:
        if slot.call:
            await anyio.to_thread.run_sync(slot.release)


def take_slot(client: str) -> Slot | Refusal:
    """One of ``client``'s ``API_CONCURRENCY`` slots, or a Refusal when all are taken."""
    cap = int(settings.API_CONCURRENCY)
    if cap <= 0:
        return Slot(client, "")
    enter = _enter_redis if settings.REDIS_URL else _enter_local
    call = enter(client, cap)
    if call is None:
        API_RATE_LIMITED.labels(token=client, budget=IN_FLIGHT).inc()
        log.info("rate limit: %s has %s calls in flight already", client, cap)
        return Refusal(retry_after=_IN_FLIGHT_RETRY_AFTER, limit=f"{cap} serentak")
    return Slot(client, call)


def reset() -> None:
    """Forget every counter (tests)."""
    with _lock:
        for found in _limiters.values():
            found.storage.reset()
        _local_in_flight.clear()
