"""The stage-event outbox: every StageStatusEvent is logged before anyone tries to send it.

Rows of :class:`~partner_events.models.StageEvent` are appended with a per-job ``seq`` (under a
lock on the job row) in the same transaction as the job update they belong to, then handed
to a publisher. Order is kept per job: an event is only ever sent when every earlier event
of its job has been published, so per-key order holds on every topic even across broker
outages and restarts. A per-job advisory lock keeps two processes from sending the same
job's events at once: held by the transaction in the drain (and in :func:`publish_job`
called inside a transaction), else by the session, so :func:`publish_job` can save each
event's status before sending the next.

Public entry points: :func:`append`, :func:`publish_job`, :func:`drain_pending`,
:func:`replay_job`, :func:`record_terminal_after_review`, :func:`backlog_size`; the
pipeline observer that writes here is :class:`partner_events.lifecycle.StageEventObserver`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, Min
from django.utils import timezone

from aceh_rag.platform.metrics import OUTBOX_BACKLOG
from ingestion.models import Chunk, IngestionJob
from ingestion.pipeline.locks import advisory_lock
from partner_events.contract.config import ContractConfig
from partner_events.models import PublishStatus, StageEvent
from partner_events.publisher import (
    Delivery,
    DeliveryResult,
    NullPublisher,
    OutgoingEvent,
    Publisher,
)
from partner_events.status import RoutingKey, build_event, is_terminal, topic_for

__all__ = [
    "UNPUBLISHED",
    "NewEvent",
    "append",
    "backlog_size",
    "drain_pending",
    "initial_status",
    "job_key",
    "publish_job",
    "record_terminal_after_review",
    "replay_job",
]

log = logging.getLogger(__name__)

UNPUBLISHED = (PublishStatus.PENDING, PublishStatus.FAILED)
DRAIN_BATCH = 100
_PUBLISH_LOCK = "SELECT pg_try_advisory_xact_lock(hashtextextended(%s, 0))"
_STATUS_FOR = {
    Delivery.PUBLISHED: PublishStatus.PUBLISHED,
    Delivery.FAILED: PublishStatus.FAILED,
    Delivery.NOT_APPLICABLE: PublishStatus.NOT_APPLICABLE,
}


@dataclass(frozen=True, slots=True)
class NewEvent:
    routing_key: str
    payload: dict[str, Any]


def job_key(job: IngestionJob) -> str:
    """The event's jobId and Kafka key: the partner's jobId, or our id for admin uploads."""
    return str(job.partner_job_id or job.pk)


def stage_topics() -> dict[str, str]:
    return dict(ContractConfig.from_settings().stage_topics)


def initial_status(publisher: Publisher) -> PublishStatus:
    """Events that will never be sent are logged as such, so no drain ever picks them up."""
    return (
        PublishStatus.NOT_APPLICABLE
        if isinstance(publisher, NullPublisher)
        else (PublishStatus.PENDING)
    )


def append(
    job: IngestionJob,
    events: Sequence[NewEvent],
    *,
    status: PublishStatus = PublishStatus.PENDING,
) -> list[StageEvent]:
    """Log ``events`` for ``job`` in order; joins the caller's transaction if there is one."""
    if not events:
        return []
    topics = stage_topics()
    with transaction.atomic():
        # The row lock serializes seq allocation between writers of the same job. The last
        # seq is read after it, in its own statement: under READ COMMITTED a statement that
        # waited for the lock still sees the data as it was when it started.
        IngestionJob.objects.select_for_update().only("pk").get(pk=job.pk)
        last = StageEvent.objects.filter(job_id=job.pk).aggregate(m=Max("seq"))["m"] or 0
        rows = [
            StageEvent(
                job_id=job.pk,
                seq=last + offset,
                routing_key=event.routing_key,
                topic=topic_for(event.routing_key, topics),
                record_key=job_key(job),
                payload=event.payload,
                publish_status=status,
            )
            for offset, event in enumerate(events, start=1)
        ]
        StageEvent.objects.bulk_create(rows)
    return rows


def _outgoing(row: StageEvent) -> OutgoingEvent:
    return OutgoingEvent(
        routing_key=row.routing_key, topic=row.topic, key=row.record_key, value=row.payload
    )


def _record(row: StageEvent, result: DeliveryResult) -> None:
    status = _STATUS_FOR[result.status]
    fields: dict[str, Any] = {
        "publish_status": status,
        "publish_attempts": row.publish_attempts + 1,
        "publish_error": result.error[:2000],
    }
    if status == PublishStatus.PUBLISHED:
        fields["published_at"] = timezone.now()
    StageEvent.objects.filter(pk=row.pk).update(**fields)
    for name, value in fields.items():
        setattr(row, name, value)
    if status == PublishStatus.FAILED:
        log.warning(
            "stage event %s#%s (%s) not published: %s",
            row.record_key,
            row.seq,
            row.routing_key,
            result.error,
        )


def _lock_for_publishing(job_pk: Any) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_PUBLISH_LOCK, [f"stage-publish:{job_pk}"])
        row = cursor.fetchone()
    return bool(row and row[0])


def _heads(job_pks: Sequence[Any]) -> list[StageEvent]:
    """The first unpublished event of each job."""
    return list(
        StageEvent.objects.filter(job_id__in=job_pks, publish_status__in=UNPUBLISHED)
        .order_by("job_id", "seq")
        .distinct("job_id")
    )


def _publish_round(job_pks: Sequence[Any], publisher: Publisher) -> tuple[int, int]:
    """Send the head event of each job not being published elsewhere: (sent, tried)."""
    with transaction.atomic():
        locked = [pk for pk in job_pks if _lock_for_publishing(pk)]
        heads = _heads(locked) if locked else []
        if not heads:
            return 0, 0
        results = publisher.deliver([_outgoing(row) for row in heads])
        for row, result in zip(heads, results, strict=True):
            _record(row, result)
    sent = sum(1 for r in results if r.status is not Delivery.FAILED)
    return sent, len(heads)


@contextmanager
def _publishing(job_pk: Any) -> Iterator[bool]:
    """Hold the job's publish lock for a whole run of events (True if it was free)."""
    if connection.in_atomic_block:
        # Inside the caller's transaction the statuses commit with it: a savepoint keeps a
        # failure contained, and the transaction's lock is held until that commit.
        with transaction.atomic():
            yield _lock_for_publishing(job_pk)
        return
    # Outside one, each status commits at once; the session lock (released safely, or
    # the connection is closed) spans the run.
    with advisory_lock(f"stage-publish:{job_pk}") as locked:
        yield locked


def publish_job(job: IngestionJob, publisher: Publisher) -> int:
    """Send ``job``'s unpublished events in seq order, stopping at the first failure.

    Each event is delivered and confirmed before the next is produced, and its status is
    saved before the next is sent, so a crash part-way never leaves a published event
    behind an unpublished earlier one. Never raises: a publishing problem is logged and
    the events stay in the outbox.
    """
    sent = 0
    try:
        # One lock and one read for the job's whole run of events (a document ends with
        # four at once), instead of a lock-read-send round per event plus an empty one.
        if not publisher.ready():
            return 0
        with _publishing(job.pk) as locked:
            if not locked:
                return 0
            rows = StageEvent.objects.filter(job_id=job.pk, publish_status__in=UNPUBLISHED)
            for row in rows.order_by("seq"):
                [result] = publisher.deliver([_outgoing(row)])
                _record(row, result)
                if result.status is Delivery.FAILED:
                    break
                sent += 1
                if not publisher.ready():
                    break
    except Exception:
        log.exception("publishing stage events of job %s failed; kept in the outbox", job.pk)
    return sent


def drain_pending(publisher: Publisher, limit: int = 500) -> int:
    """Retry the backlog, oldest first, one event per job per round; returns events sent.

    The Kafka worker calls this periodically. A round that sends nothing ends the drain
    (the broker is still down); the next call tries again.
    """
    started = time.monotonic()
    sent = 0
    while sent < limit and publisher.ready():
        batch = min(DRAIN_BATCH, limit - sent)
        job_pks = list(
            StageEvent.objects.filter(publish_status__in=UNPUBLISHED)
            .values("job_id")
            .annotate(first=Min("id"))
            .order_by("first")
            .values_list("job_id", flat=True)[:batch]
        )
        if not job_pks:
            break
        done, _tried = _publish_round(job_pks, publisher)
        sent += done
        if done == 0:
            break
    if sent:
        log.info("outbox: drained %s events in %.3fs", sent, time.monotonic() - started)
    backlog_size()
    return sent


def _replayed(job: IngestionJob, terminal_only: bool) -> list[StageEvent]:
    rows = list(StageEvent.objects.filter(job=job).order_by("seq"))
    if not terminal_only:
        return rows
    terminals = [r for r in rows if is_terminal(r.payload.get("stage"), r.payload.get("status"))]
    return terminals[-1:]


def replay_job(
    job: IngestionJob, *, terminal_only: bool = False, publisher: Publisher | None = None
) -> int:
    """Re-send a job's logged events (all, or only the last terminal one); returns the count.

    Nothing is appended. Without a publisher the events are marked pending again for the
    worker's drain loop (the admin UI's "terbitkan ulang"). With one, they are sent now in
    seq order, stopping at the first failure; only a publisher that reaches the partner
    (Kafka) updates their publish status.
    """
    rows = _replayed(job, terminal_only)
    if publisher is None:
        StageEvent.objects.filter(pk__in=[r.pk for r in rows]).update(
            publish_status=PublishStatus.PENDING, publish_error=""
        )
        log.info("replay of job %s scheduled: %s events", job_key(job), len(rows))
        return len(rows)
    sent = 0
    with transaction.atomic():
        if not _lock_for_publishing(job.pk):
            log.warning("replay of job %s skipped: its events are being published", job.pk)
            return 0
        for row in rows:
            result = publisher.deliver([_outgoing(row)])[0]
            if publisher.delivers_to_partner and row.publish_status != PublishStatus.PUBLISHED:
                _record(row, result)
            if result.status is Delivery.FAILED:
                break
            sent += 1
    log.info("replay of job %s: %s of %s events sent", job_key(job), sent, len(rows))
    return sent


def _registry_for(job: IngestionJob) -> str | None:
    last = StageEvent.objects.filter(job=job).order_by("-seq").values_list("payload", flat=True)
    for payload in last[:1]:
        if isinstance(payload, dict) and payload.get("registryId"):
            return str(payload["registryId"])
    if job.document is not None and job.document.registry_id:
        return job.document.registry_id
    value = job.payload.get("registryId") or job.payload.get("documentId")
    return str(value) if value else (str(job.document_id) if job.document_id else None)


def record_terminal_after_review(job: IngestionJob) -> StageEvent:
    """The last parked chunk of ``job``'s document was reviewed: log indexed/done.

    Runs in the review's transaction, so the event exists iff the status change commits;
    the worker's drain loop publishes it.
    """
    document = job.document
    if document is None:
        raise ValueError(f"job {job.pk} has no document")
    meta: dict[str, Any] = {
        "chunkCount": Chunk.objects.filter(document=document, indexed=True).count()
    }
    if document.ocr_confidence is not None:
        meta["ocrConfidence"] = document.ocr_confidence
    payload = build_event(
        RoutingKey.INDEXED,
        job_id=job_key(job),
        registry_id=_registry_for(job),
        ai_document_id=str(document.pk),
        meta=meta,
    )
    status = PublishStatus.PENDING if job.partner_job_id else PublishStatus.NOT_APPLICABLE
    (row,) = append(job, [NewEvent(RoutingKey.INDEXED, payload)], status=status)
    log.info("job %s: indexed/done after review logged as #%s", job_key(job), row.seq)
    return row


def backlog_size() -> int:
    """Events logged but not yet published (pending or failed), also exported as a gauge."""
    size = StageEvent.objects.filter(publish_status__in=UNPUBLISHED).count()
    OUTBOX_BACKLOG.set(size)
    return size


def on_job_settled_by_review(sender: Any, *, job: IngestionJob, **_kwargs: Any) -> None:
    """Receiver of :data:`ingestion.signals.job_settled_by_review` (connected in ``apps``):
    a partner's job gets its terminal event; an admin upload has no partner to tell."""
    if job.partner_job_id is not None:
        record_terminal_after_review(job)
