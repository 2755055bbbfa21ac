"""Pipeline milestones → StageStatusEvents, in the contract's "Lifecycle berurutan" order.

``fetched`` and each ``ocr_pending`` are logged and published as they happen. ``parsed``,
``ocr``, ``chunked`` and ``embedded`` are held and logged together with the terminal event,
in the same transaction as the job's final state: a job is never ``done`` without its
terminal event in the outbox, and a failure drops what was held (the contract's failure
path is fetched, any OCR starts, failed/failed).

The observer also keeps the job row current (it is a :class:`JobProgressObserver`), so
either entry point needs only this one observer::

    StageEventObserver(job, publisher, registry_id=record.registry_id)   # Kafka
    StageEventObserver(job)                      # admin upload: logged, not_applicable
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import transaction

from ingestion.jobs import JobProgressObserver
from ingestion.models import IngestionJob
from ingestion.pipeline.request import Milestone
from partner_events.outbox import NewEvent, append, initial_status, job_key, publish_job
from partner_events.publisher import NullPublisher, Publisher
from partner_events.status import RoutingKey, WireStatus, build_event

log = logging.getLogger(__name__)

LIVE = frozenset({Milestone.FETCHED, Milestone.OCR_PENDING})
HELD = frozenset({Milestone.PARSED, Milestone.OCR, Milestone.CHUNKED, Milestone.EMBEDDED})
TERMINAL = frozenset(
    {Milestone.INDEXED, Milestone.NEEDS_REVIEW, Milestone.SKIPPED, Milestone.FAILED}
)


def routing_for(milestone: Milestone) -> tuple[RoutingKey, str | None]:
    """The stage-topic routing key and status override of a milestone."""
    if milestone is Milestone.NEEDS_REVIEW:
        return RoutingKey.INDEXED, WireStatus.NEEDS_REVIEW.value
    return RoutingKey(milestone.value), None


class StageEventObserver(JobProgressObserver):
    """Writes a job's stage events to the outbox and hands them to ``publisher``.

    ``registry_id`` is the partner's; admin uploads have none, and their events carry the
    document id (or, before a document exists, the job id) so terminal events stay valid.
    """

    def __init__(
        self,
        job: IngestionJob,
        publisher: Publisher | None = None,
        *,
        registry_id: str | None = None,
    ) -> None:
        super().__init__(job)
        self.publisher: Publisher = publisher if publisher is not None else NullPublisher()
        self.registry_id = registry_id
        self.held: list[NewEvent] = []
        self.terminal: Milestone | None = None

    def _registry(self, document_id: UUID | None) -> str:
        if self.registry_id:
            return self.registry_id
        return str(document_id or self.job.document_id or self.job.pk)

    def event(
        self,
        milestone: Milestone,
        *,
        document_id: UUID | None,
        meta: dict[str, Any] | None,
        error: str | None,
        at: datetime | None = None,
    ) -> NewEvent:
        routing, status = routing_for(milestone)
        payload = build_event(
            routing,
            job_id=job_key(self.job),
            registry_id=self._registry(document_id),
            ai_document_id=str(document_id) if document_id else None,
            error=error,
            meta=meta,
            status_override=status,
            ts=at,
        )
        return NewEvent(routing.value, payload)

    def milestone(
        self,
        key: str,
        *,
        document_id: UUID | None,
        meta: dict[str, Any] | None,
        error: str | None = None,
        at: datetime | None = None,
    ) -> None:
        milestone = Milestone(key)
        if self.terminal is not None:
            log.error("job %s: milestone %s after terminal %s", self.job.pk, key, self.terminal)
            return
        event = self.event(milestone, document_id=document_id, meta=meta, error=error, at=at)
        status = initial_status(self.publisher)
        if milestone in HELD:
            self.held.append(event)
            super().milestone(key, document_id=document_id, meta=meta, error=error, at=at)
            return
        if milestone in LIVE:
            append(self.job, [event], status=status)
            super().milestone(key, document_id=document_id, meta=meta, error=error, at=at)
        else:
            batch = [event] if milestone is Milestone.FAILED else [*self.held, event]
            with transaction.atomic():
                super().milestone(key, document_id=document_id, meta=meta, error=error, at=at)
                append(self.job, batch, status=status)
            self.held = []
            self.terminal = milestone
        publish_job(self.job, self.publisher)
