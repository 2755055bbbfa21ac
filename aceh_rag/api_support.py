"""What the API routers share without importing the NinjaAPI: errors and token auth.

Kept apart from ``aceh_rag.api`` so a router module can be imported on its own (the API
module imports the routers, not the other way round).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer

from aceh_rag.platform.ratelimit import Budget
from ingestion import visibility
from ingestion.models import ApiToken, TokenScope
from ingestion.rate_gate import COUNTED
from ingestion.tokens import (
    TOKEN_PREFIX,
    admit,
    find_token,
    hash_token,
    new_token,
    token_visibility,
)

__all__ = ["TOKEN_PREFIX", "ApiError", "ApiTokenAuth", "hash_token", "new_token"]


class ApiError(Exception):
    """An error with a stable machine-readable code and a message a person reads."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


class ApiTokenAuth(HttpBearer):
    """Bearer tokens from :class:`ApiToken`: revoked ones are refused, the scope checked,
    the budget counted (429 + Retry-After), and the token's clearance becomes what this
    request may see (:mod:`ingestion.visibility`)."""

    def __init__(self, scope: TokenScope, budget: Budget) -> None:
        super().__init__()
        self.scope = scope
        self.budget = budget

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        api_token = find_token(token)
        if api_token is None:
            return None
        scope = request.META.get("asgi.scope") or {}
        counted = bool(scope.get(COUNTED))  # the ASGI gate counted it (ingestion.rate_gate)
        denied = admit(api_token, self.scope, None if counted else self.budget)
        if denied is not None:
            headers = {"Retry-After": str(denied.retry_after)} if denied.retry_after else {}
            extra = {"retryAfter": denied.retry_after} if denied.retry_after else {}
            raise ApiError(denied.status, denied.code, denied.detail, headers=headers, **extra)
        visibility.set_current(token_visibility(api_token))
        return api_token


api_token_auth = ApiTokenAuth(TokenScope.SEARCH, Budget.SEARCH)
upload_token_auth = ApiTokenAuth(TokenScope.UPLOAD, Budget.UPLOAD)
