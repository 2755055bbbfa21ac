"""What a person reads about a document or job that is not finished: never a bare spinner.

Single jobs use ``ingestion.jobs.queue_info``. Lists use :func:`live_statuses`, which gives
the same line (:mod:`ingestion.queue_text`) for every waiting job on a page in a constant
number of queries (``queue_info`` costs a few queries per job).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from uuid import UUID

from django.conf import settings
from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from ingestion import jobs as job_service
from ingestion import queue_text
from ingestion.models import Document, DocumentStatus, IngestionJob, JobState

IN_PROGRESS_DOCUMENT = (DocumentStatus.QUEUED, DocumentStatus.PROCESSING)
IN_PROGRESS_JOB = (JobState.QUEUED, JobState.PROCESSING, JobState.DEFERRED)
WAITING_JOB = (JobState.QUEUED, JobState.DEFERRED)


@dataclass(frozen=True, slots=True)
class LiveStatus:
    text: str
    progress: int | None  # 0..100 while processing, else None
    polling: bool  # the row keeps asking until it settles


def job_status(job: IngestionJob) -> LiveStatus:
    """The queue/stage line of one job."""
    info = job_service.queue_info(job)
    progress = int(job.progress) if job.state == JobState.PROCESSING else None
    return LiveStatus(str(info.text), progress, job.state in IN_PROGRESS_JOB)


def _positions(waiting: Sequence[IngestionJob]) -> dict[UUID, int]:
    ahead = (
        IngestionJob.objects.filter(
            origin=OuterRef("origin"),
            state__in=job_service.WAITING_STATES,
            created_at__lt=OuterRef("created_at"),
        )
        .order_by()
        .values("origin")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = (
        IngestionJob.objects.filter(pk__in=[job.pk for job in waiting])
        .annotate(ahead=Coalesce(Subquery(ahead, output_field=IntegerField()), Value(0)))
        .values_list("pk", "ahead")
    )
    return {pk: int(n) + 1 for pk, n in rows}


def live_statuses(jobs: Iterable[IngestionJob]) -> dict[UUID, LiveStatus]:
    """Live lines for the in-progress jobs of a page, in a constant number of queries."""
    jobs = [job for job in jobs if job.state in IN_PROGRESS_JOB]
    waiting = [job for job in jobs if job.state in WAITING_JOB]
    positions = _positions(waiting) if waiting else {}
    workers = int(settings.INGEST_WORKERS)
    medians = {o: job_service.recent_job_seconds(o) for o in {j.origin for j in waiting}}
    result: dict[UUID, LiveStatus] = {}
    for job in jobs:
        if job.state not in WAITING_JOB:
            # Processing jobs are at most one per worker: the exact single-job line is cheap.
            result[job.pk] = job_status(job)
            continue
        position = positions.get(job.pk, 1)
        eta = queue_text.eta_seconds(medians[job.origin], position, workers)
        deferred = job.status_text if job.state == JobState.DEFERRED else ""
        text = queue_text.waiting_text(position, eta, deferred_text=deferred)
        result[job.pk] = LiveStatus(text, None, True)
    return result


def document_status(
    document: Document, job: IngestionJob | None, live: LiveStatus | None = None
) -> LiveStatus:
    """A document's status line: the live job line while in progress, else the outcome."""
    if document.status in IN_PROGRESS_DOCUMENT:
        if job is not None and job.state in IN_PROGRESS_JOB:
            return live or job_status(job)
        return LiveStatus(str(DocumentStatus(document.status).label), None, True)
    if document.status == DocumentStatus.FAILED:
        reason = document.failure_reason or (job.error if job else "")
        return LiveStatus(reason or str(DocumentStatus.FAILED.label), None, False)
    return LiveStatus(str(DocumentStatus(document.status).label), None, False)


def latest_job(jobs: Iterable[IngestionJob]) -> IngestionJob | None:
    """The newest of a prefetched job list (ordered newest first by the Prefetch)."""
    return next(iter(jobs), None)
