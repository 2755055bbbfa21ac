"""Graceful drain: once a process is told to stop, new work gets 503 + Retry-After.

The web server (gunicorn, see ``docker/gunicorn.conf.py``) flips the flag on SIGTERM and
keeps serving in-flight requests until its graceful timeout. Requests that still arrive on
open keep-alive connections are answered, not dropped: 503 with ``Retry-After`` and
``Connection: close``. Liveness (``/healthz``) keeps answering 200 so the orchestrator does
not kill a draining process early; readiness (``/readyz``) reports 503.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

_draining = threading.Event()

# Paths that keep answering while draining: probes and metrics scrapes.
_ALWAYS_SERVED = ("/healthz", "/readyz", "/metrics")


def start_draining() -> None:
    _draining.set()


def stop_draining() -> None:
    """Only for tests and for a process that aborted its shutdown."""
    _draining.clear()


def is_draining() -> bool:
    return _draining.is_set()


def draining_response() -> HttpResponse:
    response = JsonResponse(
        {"code": "DRAINING", "detail": "Layanan sedang dihentikan; coba lagi sebentar lagi."},
        status=503,
    )
    response["Retry-After"] = str(settings.WEB_DRAIN_RETRY_AFTER_SECONDS)
    response["Connection"] = "close"
    return response


class DrainMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_draining() and not request.path.startswith(_ALWAYS_SERVED):
            return draining_response()
        return self.get_response(request)
