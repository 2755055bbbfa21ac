"""The worker's database chores: re-run deferred jobs, recover crashed ones, resolve holds.

A ``deferred`` delivery leaves its job in Postgres with the full event (the handler saves
the payload when it claims the job), so the worker re-runs it from there once the
document lock is free instead of waiting for the partner to re-publish.

A job a dead worker left ``processing`` is recognised by its document lock: the pipeline
holds a session-level advisory lock on ``lock_key`` for the whole run and Postgres drops it
with the dead connection. ``processing`` + lock free + no heartbeat for ``grace`` seconds
means nobody is working on it, so it becomes ``deferred`` and is re-run like any other.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from ingestion.models import IngestionJob, JobOrigin, JobState
from ingestion.pipeline.locks import held_elsewhere
from partner_events.handler import HandleOutcome, handle_stored_job, job_lock_key
from partner_events.publisher import Publisher

log = logging.getLogger(__name__)

OPEN_STATES = (JobState.QUEUED, JobState.PROCESSING, JobState.DEFERRED)
ORPHAN_TEXT = "Ditunda — worker sebelumnya berhenti; akan dijalankan ulang"


def reclaim_orphans(grace_s: float, limit: int = 20) -> list[str]:
    """Turn Kafka jobs a dead worker left ``processing`` into ``deferred``; their jobIds."""
    cutoff = timezone.now() - timedelta(seconds=grace_s)
    stale = IngestionJob.objects.filter(
        origin=JobOrigin.KAFKA, state=JobState.PROCESSING, heartbeat_at__lt=cutoff
    ).order_by("heartbeat_at")[:limit]
    reclaimed: list[str] = []
    for job in stale:
        key = job_lock_key(job)
        if key and held_elsewhere(key):
            continue  # a live worker holds the document: a long run, not a crash
        with transaction.atomic():
            updated = IngestionJob.objects.filter(
                pk=job.pk, state=JobState.PROCESSING, heartbeat_at__lt=cutoff
            ).update(state=JobState.DEFERRED, status_text=ORPHAN_TEXT)
        if updated:
            reclaimed.append(str(job.partner_job_id))
            log.warning(
                "job %s: left processing by a stopped worker (heartbeat %s); re-run scheduled",
                job.partner_job_id,
                job.heartbeat_at,
            )
    return reclaimed


def next_deferred(retry_after_s: float) -> IngestionJob | None:
    """The Kafka job waiting longest, once it has waited ``retry_after_s``.

    Waiting means deferred (lock contention) or queued by an admin's "Jalankan ulang" of a
    failed job (``ingestion.jobs.requeue_job``); both re-run from the stored event.
    """
    due = timezone.now() - timedelta(seconds=retry_after_s)
    return (
        IngestionJob.objects.filter(
            origin=JobOrigin.KAFKA,
            state__in=(JobState.DEFERRED, JobState.QUEUED),
            heartbeat_at__lt=due,
        )
        .order_by("heartbeat_at")
        .first()
    )


def retry_deferred(publisher: Publisher, retry_after_s: float) -> HandleOutcome | None:
    """Re-run one due deferred job from its saved event; None when none is due.

    Two workers may pick the same job: the handler's row lock lets one claim it and the
    other gets ``deferred`` back without touching it.
    """
    job = next_deferred(retry_after_s)
    if job is None:
        return None
    started = time.monotonic()
    outcome = handle_stored_job(job, publisher=publisher)
    log.info(
        "deferred job %s re-run: jobId=%s documentId=%s outcome=%s in %.2fs",
        job.pk,
        job.partner_job_id,
        outcome.document_id or "-",
        outcome.outcome,
        time.monotonic() - started,
    )
    return outcome


def resolved_jobs(job_ids: set[str]) -> set[str]:
    """The given partner jobIds whose job reached an outcome (or has no row at all)."""
    if not job_ids:
        return set()
    still_open = {
        str(value)
        for value in IngestionJob.objects.filter(
            partner_job_id__in=list(job_ids), state__in=OPEN_STATES
        ).values_list("partner_job_id", flat=True)
    }
    return {job for job in job_ids if job not in still_open}
