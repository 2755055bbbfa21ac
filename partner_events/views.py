"""Kafka jobs by jobId: the original event, every stage event and its publish outcome.

Admins can re-publish a job's terminal status (reconciliation with the partner) and re-run
a failed job.
"""

from __future__ import annotations

import json
import logging
from typing import Any
from uuid import UUID

from django.contrib import messages
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from ingestion.charts.timeline import timeline_chart
from ingestion.jobs import requeue_job
from ingestion.models import IngestionJob, JobOrigin, JobState
from ingestion.permissions import admin_required
from ingestion.views.common import page, paginate, query_string_without
from ingestion.views.labels import stage_label
from ingestion.views.status import job_status
from partner_events.models import StageEvent
from partner_events.outbox import UNPUBLISHED, replay_job

log = logging.getLogger(__name__)


ALL_ORIGINS = "all"


def _origin_filter(request: HttpRequest) -> Q:
    """Kafka jobs unless asked otherwise; the dashboard links failures of every origin."""
    origin = request.GET.get("origin", "")
    if origin == ALL_ORIGINS:
        return Q()
    if origin in JobOrigin.values:
        return Q(origin=origin)
    return Q(origin=JobOrigin.KAFKA)


def _job_queryset(request: HttpRequest) -> QuerySet[IngestionJob]:
    jobs = (
        IngestionJob.objects.filter(_origin_filter(request))
        .select_related("document")
        .defer("payload", "document__metadata", "document__title_labels")
        .annotate(
            events=Count("stage_events"),
            unpublished=Count(
                "stage_events", filter=Q(stage_events__publish_status__in=UNPUBLISHED)
            ),
        )
        .order_by("-created_at")
    )
    state = request.GET.get("state", "")
    if state in JobState.values:
        jobs = jobs.filter(state=state)
    reason = request.GET.get("reason")
    if reason is not None:
        jobs = jobs.filter(error=reason)
    text = request.GET.get("q", "").strip()
    if text:
        try:
            jobs = jobs.filter(partner_job_id=UUID(text))
        except ValueError:
            jobs = jobs.filter(document__title__icontains=text)
    return jobs


@admin_required
def job_list(request: HttpRequest) -> HttpResponse:
    context = {
        "nav": "jobs",
        "page_obj": paginate(request, _job_queryset(request)),
        "states": JobState.choices,
        "state": request.GET.get("state", ""),
        "q": request.GET.get("q", ""),
        "origins": [(ALL_ORIGINS, "Semua asal"), *JobOrigin.choices],
        "origin": request.GET.get("origin", ""),
        "reason": request.GET.get("reason"),
        "filters_qs": query_string_without(request, "page"),
    }
    return page(request, "ingestion/job_list.html", context)


def _find_job(job_id: UUID) -> IngestionJob:
    job = (
        IngestionJob.objects.select_related("document", "created_by")
        .filter(Q(partner_job_id=job_id) | Q(pk=job_id))
        .first()
    )
    if job is None:
        raise Http404("Pekerjaan tidak ditemukan.")
    return job


def _event_rows(events: list[StageEvent]) -> list[dict[str, Any]]:
    rows = []
    for event in events:
        payload = event.payload if isinstance(event.payload, dict) else {}
        rows.append(
            {
                "event": event,
                "stage": payload.get("stage", ""),
                "status": payload.get("status", ""),
                "label": stage_label(event.routing_key),
                "json": json.dumps(payload, indent=2, ensure_ascii=False, sort_keys=True),
            }
        )
    return rows


@admin_required
def job_detail(request: HttpRequest, job_id: UUID) -> HttpResponse:
    job = _find_job(job_id)
    stage_events = list(StageEvent.objects.filter(job=job).order_by("seq"))
    events = _event_rows(stage_events)
    context = {
        "nav": "jobs",
        "job": job,
        "timeline": timeline_chart(job, job.milestones.order_by("seq")),
        "live": job_status(job),
        "events": events,
        "unpublished": sum(1 for e in events if e["event"].publish_status in UNPUBLISHED),
        "payload_json": json.dumps(job.payload, indent=2, ensure_ascii=False, sort_keys=True),
        "can_rerun": job.state == JobState.FAILED,
        "can_replay": job.partner_job_id is not None,
    }
    return page(request, "ingestion/job_detail.html", context)


@require_POST
@admin_required
def job_replay(request: HttpRequest, job_id: UUID) -> HttpResponse:
    job = _find_job(job_id)
    if job.partner_job_id is None:
        messages.error(request, "Penerbitan ulang belum tersedia untuk pekerjaan ini.")
    else:
        replay_job(job, terminal_only=True)
        log.info("terminal status of job %s re-published by %s", job.partner_job_id, request.user)
        messages.success(request, "Status terminal dijadwalkan untuk diterbitkan ulang.")
    return redirect("job_detail", job_id=job_id)


@require_POST
@admin_required
def job_rerun(request: HttpRequest, job_id: UUID) -> HttpResponse:
    job = _find_job(job_id)
    if job.state != JobState.FAILED:
        messages.error(request, "Hanya pekerjaan yang gagal yang dapat dijalankan ulang.")
        return redirect("job_detail", job_id=job_id)
    requeue_job(job, user=request.user)
    messages.success(request, "Pekerjaan dimasukkan kembali ke antrean.")
    return redirect("job_detail", job_id=job_id)
