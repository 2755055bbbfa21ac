"""The MCP endpoint's door: ``Authorization: Bearer <ApiToken>`` on every HTTP request.

No token, an unknown or revoked one (looked up on every request: a revocation holds at
once) → 401 with ``WWW-Authenticate: Bearer``; no ``search`` scope → 403; over the
token's search budget or with all its ``API_CONCURRENCY`` calls in flight → 429 with
``Retry-After`` (the platform's backpressure answer).
The admitted token rides in the ASGI scope (``SCOPE_KEY``) for the tools.
"""

from __future__ import annotations

import json
from typing import Any

import anyio.to_thread
from django.db import close_old_connections

from aceh_rag.platform.ratelimit import Budget, Refusal, Slot, serve_holding, take_slot
from ingestion.models import ApiToken, TokenScope
from ingestion.tokens import Denied, admit, client_key, find_token, refused

SCOPE_KEY = "aceh_rag.api_token"
_UNAUTHENTICATED = Denied(
    401, "UNAUTHENTICATED", "Perlu token API yang sah (Authorization: Bearer <token>)"
)

ASGIApp = Any


def bearer(headers: list[tuple[bytes, bytes]]) -> str:
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            return token.strip() if scheme.lower() == "bearer" else ""
    return ""


def _admit(raw: str) -> tuple[ApiToken, Slot] | Denied:
    close_old_connections()
    try:
        token = find_token(raw)
        if token is None:
            return _UNAUTHENTICATED
        slot = take_slot(client_key(token.name))
        if isinstance(slot, Refusal):
            return refused(slot)
        denied = admit(token, TokenScope.SEARCH, Budget.SEARCH)
        if denied is not None:
            slot.release()
            return denied
        return token, slot
    finally:
        close_old_connections()  # as Django does per request (CONN_MAX_AGE)


async def refuse(send: Any, denied: Denied) -> None:
    """Answer with ``denied`` as JSON (``code``, ``detail``, ``retryAfter`` for a 429)."""
    payload: dict[str, Any] = {"code": denied.code, "detail": denied.detail}
    if denied.retry_after:
        payload["retryAfter"] = denied.retry_after
    body = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if denied.status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="aceh-rag"'))
    if denied.retry_after:
        headers.append((b"retry-after", str(denied.retry_after).encode()))
    await send({"type": "http.response.start", "status": denied.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class TokenGate:
    """ASGI middleware in front of the MCP app (lifespan passes straight through)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        result = await anyio.to_thread.run_sync(_admit, bearer(scope.get("headers", [])))
        if isinstance(result, Denied):
            await refuse(send, result)
            return
        token, slot = result
        await serve_holding(slot, self.app, {**scope, SCOPE_KEY: token}, receive, send)
