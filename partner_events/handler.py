"""One doc.uploaded record through the worker's code path: :func:`handle_record`.

validate → durable jobId dedupe (claim the job row) → ingress verdicts (reject, structured
skip) or the pipeline under the document lock → the consumer outcome of the contract's
table. The job row holds the outcome before this returns; the caller (the Kafka worker)
commits the record's offset for every outcome but ``deferred``. ``ingest_event`` calls the
same function synchronously.

Dedupe (beyond the contract's in-process store, durable across restarts): a jobId whose
last delivery ended done / needs_review / skipped is never processed again and emits
nothing; a failed one is processed again (the partner's retry path) unless this is the
very Kafka record that failed it, read again because its commit was lost (a crash or a
rebalance between the saved outcome and the commit); a ``processing`` one
with a stale heartbeat and a free document lock is a crash leftover and is processed
again; a ``processing`` one with a fresh heartbeat or a held document lock belongs to
another worker right now, so this delivery is deferred without touching the row.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from ingestion.errors import INTERNAL_ERROR
from ingestion.jobs import fresh_run, record_result, terminal_state
from ingestion.models import FINAL_JOB_STATES, IngestionJob, JobOrigin, JobState
from ingestion.pipeline.locks import held_elsewhere
from ingestion.pipeline.request import (
    IngestRequest,
    IngestResult,
    Milestone,
    Outcome,
    Provenance,
)
from ingestion.pipeline.runner import ingest
from partner_events.contract.validate import (
    ContractConfig,
    NormalizedRecord,
    Verdict,
    decode_payload,
    validate_doc_uploaded,
)
from partner_events.contract.validate import Outcome as VerdictOutcome
from partner_events.lifecycle import StageEventObserver
from partner_events.outbox import NewEvent, append, initial_status, publish_job
from partner_events.publisher import Publisher

log = logging.getLogger(__name__)

ALREADY_PROCESSED = "jobId sudah diproses sebelumnya; tidak ada event baru"
BUSY = "jobId sedang diproses oleh worker lain"
SAME_RECORD = "rekaman Kafka yang sama dibaca ulang; hasil sebelumnya tetap berlaku"


class ConsumerOutcome(StrEnum):
    """The contract's consumer-outcome table."""

    INDEXED = "indexed"
    NEEDS_REVIEW = "needs_review"
    ERROR = "error"
    SKIPPED = "skipped"
    DEFERRED = "deferred"


_FROM_RESULT = {
    Outcome.INDEXED: ConsumerOutcome.INDEXED,
    Outcome.NEEDS_REVIEW: ConsumerOutcome.NEEDS_REVIEW,
    Outcome.SKIPPED: ConsumerOutcome.SKIPPED,
    Outcome.FAILED: ConsumerOutcome.ERROR,
    Outcome.DEFERRED: ConsumerOutcome.DEFERRED,
}


@dataclass(slots=True)
class HandleOutcome:
    outcome: ConsumerOutcome
    job_id: str | None = None  # the partner's jobId, when one could be recovered
    job: IngestionJob | None = None
    document_id: UUID | None = None
    reason: str | None = None


@dataclass(slots=True)
class Claim:
    job: IngestionJob
    refused: HandleOutcome | None = None


def stale_after() -> timedelta:
    return timedelta(seconds=float(settings.JOB_STALE_SECONDS))


def storable(value: Any) -> Any:
    """A JSON value Postgres jsonb accepts: no NUL characters, no lone surrogates."""
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd").encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        return {storable(str(k)): storable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [storable(v) for v in value]
    return value


def _lock_key_max() -> int:
    return int(IngestionJob._meta.get_field("lock_key").max_length or 0)


def job_lock_key(job: IngestionJob) -> str:
    """The document lock the pipeline takes for ``job``'s stored event.

    The column holds at most ``max_length`` characters while the lock is taken on the full
    key (a long sourceKey), so a cut key is re-derived from the stored event: probing the
    cut key would find it free and hand a live run to a second worker.
    """
    if len(job.lock_key) < _lock_key_max():
        return job.lock_key
    raw = json.dumps(job.payload, ensure_ascii=False).encode("utf-8")
    record = validate_doc_uploaded(raw, ContractConfig.from_settings()).normalized
    return record.lock_key if record is not None else job.lock_key


def _still_running(job: IngestionJob, now: Any) -> bool:
    """A ``processing`` job someone works on: fresh heartbeat, or its document lock held.

    The heartbeat alone cannot tell a crash from a long step (embedding a large document
    reports no progress for minutes); the pipeline holds the document lock for the whole
    run and Postgres drops it with a dead connection, so a held lock means a live run.
    """
    if job.state != JobState.PROCESSING:
        return False
    if job.heartbeat_at is not None and job.heartbeat_at > now - stale_after():
        return True
    key = job_lock_key(job)
    return bool(key) and held_elsewhere(key)


def _refusal(job: IngestionJob, partner_job_id: str, now: Any, record: str) -> HandleOutcome | None:
    if record and job.state == JobState.FAILED and job.kafka_record == record:
        log.info("job %s failed from record %s; read again, ignored", partner_job_id, record)
        return HandleOutcome(
            ConsumerOutcome.SKIPPED, partner_job_id, job, job.document_id, SAME_RECORD
        )
    if job.state in FINAL_JOB_STATES:
        log.info("job %s already ended %s; redelivery ignored", partner_job_id, job.state)
        return HandleOutcome(
            ConsumerOutcome.SKIPPED, partner_job_id, job, job.document_id, ALREADY_PROCESSED
        )
    if _still_running(job, now):
        log.info("job %s is being processed elsewhere; delivery deferred", partner_job_id)
        return HandleOutcome(ConsumerOutcome.DEFERRED, partner_job_id, job, job.document_id, BUSY)
    return None


def claim_job(partner_job_id: str, *, payload: Any, lock_key: str, record: str = "") -> Claim:
    """Create or take over the job row for this delivery (row lock / unique constraint).

    ``record`` is the Kafka record's ``topic:partition:offset`` ("" for a re-run from the
    database, which keeps the one stored).
    """
    now = timezone.now()
    fields = fresh_run(
        state=JobState.PROCESSING,
        payload=storable(payload),
        lock_key=lock_key[: _lock_key_max()],
        started_at=now,
        heartbeat_at=now,
        finished_at=None,
    )
    if record:
        fields["kafka_record"] = record[:300]
    with transaction.atomic():
        job = IngestionJob.objects.select_for_update().filter(partner_job_id=partner_job_id).first()
        if job is None:
            try:
                with transaction.atomic():
                    created = IngestionJob.objects.create(
                        partner_job_id=partner_job_id, origin=JobOrigin.KAFKA, attempts=1, **fields
                    )
                return Claim(created)
            except IntegrityError:  # another worker created it first
                job = IngestionJob.objects.select_for_update().get(partner_job_id=partner_job_id)
        refused = _refusal(job, partner_job_id, now, record[:300])
        if refused is not None:
            return Claim(job, refused)
        fields["attempts"] = job.attempts + 1
        for name, value in fields.items():
            setattr(job, name, value)
        job.save(update_fields=list(fields))
    return Claim(job)


def _finish_at_ingress(job: IngestionJob, verdict: Verdict, publisher: Publisher) -> HandleOutcome:
    """A reject (failed/failed when correlatable) or a structured skip: no fetch at all."""
    skip = verdict.outcome is VerdictOutcome.SKIP
    event = verdict.status_event()
    key = verdict.status_routing_key
    now = timezone.now()
    with transaction.atomic():
        IngestionJob.objects.filter(pk=job.pk).update(
            state=JobState.SKIPPED if skip else JobState.FAILED,
            stage=Milestone.SKIPPED.value if skip else Milestone.FAILED.value,
            progress=100,
            error=verdict.error or "",
            status_text="",
            finished_at=now,
            heartbeat_at=now,
        )
        if event is not None and key is not None:
            append(job, [NewEvent(key.value, event)], status=initial_status(publisher))
    publish_job(job, publisher)
    job.refresh_from_db()
    if skip:
        log.info("job %s: structured source skipped without fetch", job.partner_job_id)
        return HandleOutcome(
            ConsumerOutcome.SKIPPED, verdict.job_id, job, None, "sumber terstruktur dilewati"
        )
    log.warning("job %s rejected at ingress: %s", verdict.job_id, verdict.error)
    return HandleOutcome(ConsumerOutcome.ERROR, verdict.job_id, job, None, verdict.error)


def request_for_record(job: IngestionJob, record: NormalizedRecord) -> IngestRequest:
    return IngestRequest(
        job=job,
        storage_key=record.storage_key,
        format=record.format.value,
        parser_file_name=record.parser_file_name,
        mime_type=record.media_type,
        title=record.title,
        title_from_partner=record.title_from_partner,
        source_type=record.source_type.value,
        source_key=record.source_key,
        source_version=record.source_version,
        source_metadata=dict(record.source_metadata),
        provenance=Provenance(
            registry_id=record.registry_id,
            collection_id=record.collection_id,
            collection_name=record.collection_name,
            uploaded_by=record.uploaded_by,
            source_system=record.source_system,
            skpa_unit=record.skpa_unit,
            classification=record.classification,
            category=record.category,
        ),
        lock_key=record.lock_key,
    )


def _run_pipeline(
    job: IngestionJob, record: NormalizedRecord, publisher: Publisher
) -> HandleOutcome:
    observer = StageEventObserver(job, publisher, registry_id=record.registry_id)
    try:
        result = ingest(request_for_record(job, record), observer)
    except Exception:
        log.exception("job %s: pipeline raised", record.job_id)
        if observer.terminal is None:
            observer.milestone(Milestone.FAILED, document_id=None, meta=None, error=INTERNAL_ERROR)
        result = IngestResult(outcome=Outcome.FAILED, error=INTERNAL_ERROR)
    record_result(job, result)
    _ensure_final(job, observer, result)
    job.refresh_from_db()
    outcome = _FROM_RESULT[result.outcome]
    reason = result.error
    if result.outcome is Outcome.SKIPPED:
        reason = "konten sama dengan dokumen yang sudah ada"
    return HandleOutcome(outcome, record.job_id, job, result.document_id, reason)


def _ensure_final(job: IngestionJob, observer: StageEventObserver, result: IngestResult) -> None:
    """The outcome is on the job row before returning, even if the observer failed."""
    state = terminal_state(result.outcome)
    if state is None or observer.terminal is not None:
        return
    log.error("job %s: terminal milestone was not recorded; saving the outcome only", job.pk)
    IngestionJob.objects.filter(pk=job.pk).update(
        state=state, progress=100, error=result.error or "", finished_at=timezone.now()
    )


def handle_record(raw: bytes, *, publisher: Publisher, record: str = "") -> HandleOutcome:
    """Process one doc.uploaded record value; see the module docstring.

    ``record``: the Kafka record's ``topic:partition:offset`` when it came from Kafka.
    """
    started = time.monotonic()
    verdict = validate_doc_uploaded(raw, ContractConfig.from_settings())
    outcome = _handle(raw, verdict, publisher, record)
    log.info(
        "doc.uploaded %s: %s (%s) in %.2fs",
        outcome.job_id or "-",
        outcome.outcome,
        outcome.reason or "ok",
        time.monotonic() - started,
    )
    return outcome


def _handle(raw: bytes, verdict: Verdict, publisher: Publisher, delivery: str) -> HandleOutcome:
    if verdict.job_id is None:
        # Nothing to correlate with: the contract's "rekonsiliasi operator" case.
        log.warning("doc.uploaded without a usable jobId rejected: %s", verdict.error)
        return HandleOutcome(ConsumerOutcome.ERROR, reason=verdict.error)
    payload, _error = decode_payload(raw)
    record = verdict.normalized
    lock_key = record.lock_key if record is not None else ""
    claim = claim_job(verdict.job_id, payload=payload, lock_key=lock_key, record=delivery)
    if claim.refused is not None:
        return claim.refused
    if verdict.outcome is not VerdictOutcome.ACCEPT or record is None:
        return _finish_at_ingress(claim.job, verdict, publisher)
    return _run_pipeline(claim.job, record, publisher)


def handle_stored_job(job: IngestionJob, *, publisher: Publisher) -> HandleOutcome:
    """Re-run a Kafka job from its saved event (a deferred or crashed delivery)."""
    raw = json.dumps(job.payload, ensure_ascii=False).encode("utf-8")
    return handle_record(raw, publisher=publisher)
