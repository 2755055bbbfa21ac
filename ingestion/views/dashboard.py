"""Dashboard: document counts, queue depth, last-24-hour throughput and recent failures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from ingestion.charts.dashboard import dashboard_charts
from ingestion.models import Document, DocumentStatus, IngestionJob, JobState
from ingestion.permissions import is_admin
from ingestion.views.common import is_htmx, page

RECENT_FAILURES = 8
WAITING_STATES = (JobState.QUEUED, JobState.DEFERRED)


@dataclass(frozen=True, slots=True)
class Throughput:
    finished: int
    median_seconds: float | None


def status_counts() -> list[dict[str, Any]]:
    counts = dict(
        Document.objects.order_by()
        .values_list("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    return [
        {"status": value, "label": label, "count": counts.get(value, 0)}
        for value, label in DocumentStatus.choices
    ]


def queue_depth() -> dict[str, int]:
    counts = dict(
        IngestionJob.objects.order_by()
        .filter(state__in=[*WAITING_STATES, JobState.PROCESSING])
        .values_list("state")
        .annotate(n=Count("pk"))
        .values_list("state", "n")
    )
    return {
        "waiting": counts.get(JobState.QUEUED, 0),
        "deferred": counts.get(JobState.DEFERRED, 0),
        "processing": counts.get(JobState.PROCESSING, 0),
    }


def throughput_last_24h() -> Throughput:
    # The median needs percentile_cont, which the ORM has no aggregate for.
    since = timezone.now() - timedelta(hours=24)
    table = IngestionJob._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT count(*),
                   percentile_cont(0.5) WITHIN GROUP (
                       ORDER BY extract(epoch FROM finished_at - started_at))
              FROM {table}
             WHERE finished_at >= %s AND started_at IS NOT NULL
               AND state IN ('done', 'needs_review', 'skipped', 'failed')
            """,
            [since],
        )
        finished, median = cursor.fetchone()
    return Throughput(int(finished), float(median) if median is not None else None)


def recent_failures() -> list[IngestionJob]:
    return list(
        IngestionJob.objects.filter(state=JobState.FAILED)
        .select_related("document")
        .only(
            "id",
            "partner_job_id",
            "origin",
            "error",
            "finished_at",
            "created_at",
            "document__id",
            "document__title",
        )
        .order_by("-finished_at", "-created_at")[:RECENT_FAILURES]
    )


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 60:
        return f"{seconds:.0f} detik"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} menit {rest} detik" if rest else f"{minutes} menit"


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    stats = throughput_last_24h()
    context = {
        "nav": "dashboard",
        "status_counts": status_counts(),
        "queue": queue_depth(),
        "finished_24h": stats.finished,
        "median_24h": format_duration(stats.median_seconds),
        "failures": recent_failures(),
        "charts": dashboard_charts(can_admin=is_admin(request.user)),
    }
    template = (
        "ingestion/partials/dashboard_stats.html"
        if is_htmx(request)
        else ("ingestion/dashboard.html")
    )
    return page(request, template, context)
