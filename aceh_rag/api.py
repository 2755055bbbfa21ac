"""The REST API (django-ninja): one NinjaAPI, a router per app, JSON errors with a code.

Authentication, in order: an API token (``Authorization: Bearer <token>``, only its
sha256 is stored; ``manage.py create_api_token NAME``) for machine clients, then the
Django session (with CSRF on unsafe methods) for the UI. Every error body is
``{"code": "<STABLE_CODE>", "detail": "<Indonesian text>"}`` plus optional fields.
OpenAPI: ``/api/openapi.json``, browsable at ``/api/docs`` (both behind login, like every
page but the partner documentation and the probes).
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, AuthorizationError, HttpError, ValidationError
from ninja.security import django_auth

from aceh_rag.api_support import ApiError, api_token_auth
from ingestion.api import router as ingestion_router
from partner_events.api import router as partner_router

log = logging.getLogger(__name__)

api = NinjaAPI(
    title="Aceh RAG API",
    version="1",
    description=(
        "Unggah dokumen, pantau job ingestion, cari (hybrid), dan validasi event "
        "doc.uploaded. Autentikasi: `Authorization: Bearer <token>` atau sesi login."
    ),
    auth=[api_token_auth, django_auth],
    urls_namespace="api",
    docs_decorator=login_required,
)


def error_response(
    request: HttpRequest, status: int, code: str, detail: Any, **extra: Any
) -> HttpResponse:
    return api.create_response(request, {"code": code, "detail": detail, **extra}, status=status)


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    response = error_response(request, exc.status, exc.code, exc.detail, **exc.extra)
    for name, value in exc.headers.items():
        response[name] = value
    return response


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error_response(
        request,
        401,
        "UNAUTHENTICATED",
        "Perlu token API (Authorization: Bearer <token>) atau sesi login yang sah",
    )


@api.exception_handler(AuthorizationError)
def _forbidden(request: HttpRequest, exc: AuthorizationError) -> HttpResponse:
    return error_response(request, 403, "FORBIDDEN", "Akses ditolak")


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = [
        {"loc": list(err.get("loc", [])), "msg": str(err.get("msg", ""))} for err in exc.errors
    ]
    return error_response(request, 422, "VALIDATION_ERROR", "Permintaan tidak valid", errors=errors)


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, 404, "NOT_FOUND", "Tidak ditemukan")


# Ninja's own HttpError texts are English ("CSRF check Failed", "Cannot parse request
# body"); clients key on the code, people read the Indonesian detail.
_HTTP_ERROR_DETAIL = {
    400: "Isi permintaan tidak dapat dibaca",
    403: "Akses ditolak",
    404: "Tidak ditemukan",
    405: "Metode tidak diizinkan",
}


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if "csrf" in str(exc).lower():
        detail = "Token CSRF tidak ada atau tidak sah; muat ulang halaman lalu coba lagi"
        return error_response(request, exc.status_code, "CSRF_FAILED", detail)
    detail = _HTTP_ERROR_DETAIL.get(exc.status_code, "Permintaan tidak dapat diproses")
    return error_response(request, exc.status_code, f"HTTP_{exc.status_code}", detail)


@api.exception_handler(MultiPartParserError)
@api.exception_handler(SuspiciousOperation)
@api.exception_handler(UnreadablePostError)
def _bad_body(request: HttpRequest, exc: Exception) -> HttpResponse:
    # A broken upload body is the client's problem: a 4xx, never a retry-inviting 500.
    log.info("api %s %s: unreadable body: %s", request.method, request.path, exc)
    if isinstance(exc, RequestDataTooBig):
        return error_response(request, 413, "HTTP_413", "Permintaan terlalu besar")
    return error_response(request, 400, "HTTP_400", _HTTP_ERROR_DETAIL[400])


@api.exception_handler(Exception)
def _unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    log.exception("api %s %s failed", request.method, request.path)
    return error_response(request, 500, "INTERNAL_ERROR", "Kesalahan internal server")


def _register_routers() -> None:
    api.add_router("/", ingestion_router)
    api.add_router("/partner-events", partner_router)


_register_routers()
