"""Probes and metrics: ``/healthz`` (liveness), ``/readyz`` (readiness), ``/metrics``."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from aceh_rag.platform.drain import is_draining
from ingestion.metrics import register_db_collector

log = logging.getLogger(__name__)


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    # Liveness must not depend on the database: a DB outage is a readiness problem.
    return JsonResponse({"status": "ok"})


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    if is_draining():
        response = JsonResponse({"status": "draining"}, status=503)
        response["Retry-After"] = "5"
        return response
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'")
            has_vector = cursor.fetchone() is not None
    except DatabaseError as exc:
        # The driver's message names hosts, ports and users: it goes to the log, not the
        # unauthenticated probe's body.
        log.warning("readyz: database unavailable: %s", exc)
        return JsonResponse({"status": "unavailable", "database": "unavailable"}, status=503)
    if not has_vector:
        return JsonResponse({"status": "unavailable", "database": "pgvector missing"}, status=503)
    return JsonResponse({"status": "ready", "database": "ok"})


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    register_db_collector()
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
