"""The REST API's budget counted in front of Django: a refused call never waits for a
Django thread.

Under the ASGI app (:mod:`aceh_rag.asgi`) Django runs in a small thread pool; if the
budget were only counted inside it (``ApiTokenAuth``), a token sending 50 calls a second
would fill that pool and its 429s would queue behind searches, slowing every other token.
So ``/api/`` calls with a bearer token are counted here, in the event loop's own worker
threads: over budget → 429 + ``Retry-After`` at once; otherwise the call goes on, marked
in the ASGI scope so ``ApiTokenAuth`` does not count it twice (Django's test client and
plain WSGI still count there). The budget is the upload one for ``POST /api/documents``,
the search one otherwise. The token's calls in flight are capped here too
(``API_CONCURRENCY``, :func:`~aceh_rag.platform.ratelimit.take_slot`): the slot is taken
before the budget is spent and held until Django has answered. Authentication, revocation
and scopes stay with ``ApiTokenAuth``; a token's name (the counter's key) is remembered for
a minute by its hash.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import anyio.to_thread
from django.db import close_old_connections

from aceh_rag.platform.ratelimit import Budget, Refusal, Slot, check, serve_holding, take_slot
from ingestion.mcp.auth import bearer, refuse
from ingestion.models import ApiToken
from ingestion.tokens import client_key, hash_token, refused

COUNTED = "aceh_rag.rate_counted"
_NAME_TTL_SECONDS = 60.0
_MAX_NAMES = 10_000
_names: dict[str, tuple[str | None, float]] = {}
_names_lock = threading.Lock()


def token_name(raw: str) -> str | None:
    """The name of the token ``raw`` (None: no such token), remembered for a minute; for
    the event loop's worker threads, which own no request connection."""
    close_old_connections()
    try:
        return cached_token_name(raw)
    finally:
        close_old_connections()


def cached_token_name(raw: str) -> str | None:
    """:func:`token_name` on the calling thread's own connection (a Django request's)."""
    digest = hash_token(raw)
    now = time.monotonic()
    with _names_lock:
        cached = _names.get(digest)
    if cached is not None and now - cached[1] < _NAME_TTL_SECONDS:
        return cached[0]
    name = ApiToken.objects.filter(token_hash=digest).values_list("name", flat=True).first()
    with _names_lock:
        if len(_names) >= _MAX_NAMES:
            _names.clear()
        _names[digest] = (name, now)
    return name


def budget_of(method: str, path: str) -> Budget:
    return (
        Budget.UPLOAD
        if method == "POST" and path.rstrip("/") == "/api/documents"
        else Budget.SEARCH
    )


def _admit(raw: str, budget: Budget) -> Slot | Refusal | None:
    """A held slot when the call may go on, a Refusal when over its cap or budget; None when
    it is not a known token's (Django answers that one)."""
    name = token_name(raw)
    if name is None:
        return None
    client = client_key(name)
    slot = take_slot(client)
    if isinstance(slot, Refusal):
        return slot
    refusal = check(client, budget)
    if refusal is not None:
        slot.release()
        return refusal
    return slot


class RateGate:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        raw = bearer(scope.get("headers", [])) if scope["type"] == "http" else ""
        if not raw or not scope.get("path", "").startswith("/api/"):
            await self.app(scope, receive, send)
            return
        budget = budget_of(scope.get("method", "GET"), scope["path"])
        admitted = await anyio.to_thread.run_sync(_admit, raw, budget)
        if isinstance(admitted, Refusal):
            await refuse(send, refused(admitted))
            return
        if admitted is None:
            await self.app(scope, receive, send)
            return
        await serve_holding(admitted, self.app, {**scope, COUNTED: True}, receive, send)
