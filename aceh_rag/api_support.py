"""What the API routers share without importing the NinjaAPI: errors and token auth.

Kept apart from ``aceh_rag.api`` so a router module can be imported on its own (the API
module imports the routers, not the other way round).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from ninja.security import HttpBearer

from ingestion.models import ApiToken

TOKEN_PREFIX = "acr_"


class ApiError(Exception):
    """An error with a stable machine-readable code and a message a person reads."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


class ApiTokenAuth(HttpBearer):
    """Bearer tokens from :class:`ApiToken`; revoked tokens are refused."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        if not token:
            return None
        api_token = ApiToken.objects.filter(
            token_hash=hash_token(token), revoked_at__isnull=True
        ).first()
        if api_token is None:
            return None
        ApiToken.objects.filter(pk=api_token.pk).update(last_used_at=timezone.now())
        return api_token


api_token_auth = ApiTokenAuth()
