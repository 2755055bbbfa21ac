"""API tokens at the door: who is calling, may they do this, may they do it now.

One path for the REST API (``aceh_rag.api_support.ApiTokenAuth``) and the MCP server
(``ingestion.mcp``): the token is looked up by its sha256 (a revoked one is refused at
once, there is no cache), its scope is checked, its budget counted
(:mod:`aceh_rag.platform.ratelimit`), and its clearance becomes the caller's
:class:`~ingestion.visibility.Visibility`.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from aceh_rag.platform.ratelimit import Budget, Refusal, check
from ingestion.models import ApiToken, TokenScope
from ingestion.visibility import Visibility

TOKEN_PREFIX = "acr_"
# last_used_at is for people ("used a minute ago"); one write per token per interval.
LAST_USED_RESOLUTION = timedelta(seconds=30)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


@dataclass(frozen=True, slots=True)
class Denied:
    """Why a call with a token is refused: an HTTP status, a code and Indonesian text."""

    status: int
    code: str
    detail: str
    retry_after: int | None = None


def find_token(raw: str) -> ApiToken | None:
    """The active token ``raw`` names; its last use is noted."""
    if not raw:
        return None
    token = ApiToken.objects.filter(token_hash=hash_token(raw), revoked_at__isnull=True).first()
    if token is None:
        return None
    now = timezone.now()
    # The row just read says whether a write is due: a call within the resolution costs
    # no UPDATE round trip (the filter keeps concurrent callers from writing twice).
    if token.last_used_at is None or token.last_used_at < now - LAST_USED_RESOLUTION:
        ApiToken.objects.filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_RESOLUTION),
            pk=token.pk,
        ).update(last_used_at=now)
    return token


def token_visibility(token: ApiToken) -> Visibility:
    if TokenScope.ADMIN.value in token.scopes:
        return Visibility.ALL
    return Visibility.grant(token.classifications or [], token.source_types or [])


def admit(token: ApiToken, scope: TokenScope, budget: Budget | None) -> Denied | None:
    """Scope first (a permanent 403), then the budget (a 429 to wait out; None: already
    counted in front of Django, :mod:`ingestion.rate_gate`)."""
    if not token.has_scope(scope):
        return Denied(403, "SCOPE_MISSING", f"Token ini tidak memiliki cakupan '{scope.value}'")
    refusal: Refusal | None = check(client_key(token.name), budget) if budget else None
    return refused(refusal) if refusal is not None else None


def client_key(token_name: str) -> str:
    """The key a token's budgets and slots are counted under."""
    return f"token:{token_name}"


def refused(refusal: Refusal) -> Denied:
    """The 429 for a refusal by a budget or by the calls-in-flight cap."""
    return Denied(
        429,
        "RATE_LIMITED",
        f"Terlalu banyak permintaan (batas {refusal.limit}); "
        f"coba lagi dalam {refusal.retry_after} detik",
        retry_after=refusal.retry_after,
    )
