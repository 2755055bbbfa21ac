"""Admin upload jobs: enqueue, claim, progress on the job row, and the queue a person sees.

Uploads take the same road as partner events: the bytes go to object storage under
``UPLOAD_KEY_PREFIX`` and a queued :class:`IngestionJob` (origin ``upload``) carries the
metadata; ``manage.py ingest_worker`` claims jobs (``FOR UPDATE SKIP LOCKED``) and runs
:func:`ingestion.pipeline.runner.ingest`.

Identity of an admin upload: ``source_type`` from the form (default ``upload``),
``source_key = upload:<sha256>`` unless given, ``source_version`` the given version or
``"1"``; the title is the form's title or the file name. Same bytes and version as a
completed document (or a job still waiting) → no new job, the existing one is returned.
"""

from __future__ import annotations

import hashlib
import logging
import re
import statistics
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from aceh_rag.platform.metrics import JOBS_PROCESSED
from ingestion import queue_text
from ingestion.errors import INTERNAL_ERROR
from ingestion.formats import FORMAT_BY_EXTENSION
from ingestion.models import (
    COMPLETED_STATUSES,
    Document,
    DocumentStatus,
    IngestionJob,
    JobMilestone,
    JobOrigin,
    JobState,
)
from ingestion.pipeline.locks import held_elsewhere
from ingestion.pipeline.request import (
    IngestRequest,
    IngestResult,
    Milestone,
    Outcome,
    PipelineObserver,
    Provenance,
)
from ingestion.pipeline.runner import ingest
from ingestion.storage import get_storage

log = logging.getLogger(__name__)

# Jobs a worker will pick up, oldest first: deferred ones come back after a short wait, so
# they count as ahead in the queue too.
WAITING_STATES = (JobState.QUEUED, JobState.DEFERRED)
DEFAULT_JOB_SECONDS = 60  # ETA per job before any job has finished on this installation
RECENT_JOBS = 20
DEFER_RETRY_SECONDS = 15


@dataclass(slots=True)
class UploadMeta:
    title: str | None = None
    source_type: str = "upload"
    source_key: str | None = None
    source_version: str | None = None
    source_metadata: dict[str, str] = field(default_factory=dict)
    classification: str | None = None
    category: str | None = None
    skpa_unit: str | None = None
    # A bulk import names its collection and itself (ingestion.bulk); the form does not.
    collection_name: str = "upload"
    source_system: str | None = None


@dataclass(slots=True)
class UploadOutcome:
    job: IngestionJob | None = None
    document: Document | None = None
    duplicate: bool = False
    error: str | None = None

    @property
    def message(self) -> str:
        if self.error:
            return self.error
        if self.duplicate and self.document is not None:
            return f"Berkas yang sama sudah ada: {self.document.title}"
        if self.duplicate:
            return "Berkas yang sama sedang menunggu diproses"
        return "Berkas diterima dan masuk antrean"


@dataclass(frozen=True, slots=True)
class QueueInfo:
    position: int | None
    eta_seconds: int | None
    text: str


class UploadRejected(Exception):
    """An upload that can never be processed (no supported format, too large)."""


def upload_format(file_name: str) -> str:
    extension = file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""
    fmt = FORMAT_BY_EXTENSION.get(extension)
    if fmt is None:
        raise UploadRejected(f"Format berkas tidak didukung: .{extension or '?'}")
    return fmt.value


MAX_FILE_NAME = 200


def safe_file_name(name: str) -> str:
    """The basename with odd characters replaced, cut to 200 characters — never the extension,
    which decides the format."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = re.sub(r"[^\w.\- ]+", "_", base).strip(" .") or "berkas"
    if len(cleaned) <= MAX_FILE_NAME:
        return cleaned
    stem, dot, extension = cleaned.rpartition(".")
    if not dot or len(extension) > 10:
        return cleaned[:MAX_FILE_NAME]
    return f"{stem[: MAX_FILE_NAME - len(extension) - 1]}.{extension}"


def _hash_upload(uploaded_file: Any) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    for chunk in uploaded_file.chunks():
        digest.update(chunk)
        size += len(chunk)
    uploaded_file.seek(0)
    return digest.hexdigest(), size


def _existing_duplicate(
    source_type: str, source_key: str, version: str, checksum: str
) -> UploadOutcome | None:
    completed = Document.objects.filter(checksum=checksum, status__in=COMPLETED_STATUSES)
    doc = completed.filter(metadata__source_version=version).first()
    if doc is None and source_key != f"upload:{checksum}":
        # A given source key is the partner's rule 1: the same bytes at any version.
        # Without one, the contract keeps SHA-256 + version: a new version is a new edition.
        doc = completed.filter(Document.of_source(source_type, source_key)).first()
    if doc is not None:
        return UploadOutcome(document=doc, duplicate=True)
    waiting = IngestionJob.objects.filter(
        origin=JobOrigin.UPLOAD,
        state__in=[JobState.QUEUED, JobState.PROCESSING, JobState.DEFERRED],
        payload__checksum=checksum,
        payload__source_version=version,
    ).first()
    return UploadOutcome(job=waiting, duplicate=True) if waiting is not None else None


def enqueue_upload(uploaded_file: Any, *, meta: UploadMeta, user: Any) -> UploadOutcome:
    """Store the upload and queue a job, or return the document/job it duplicates."""
    name = safe_file_name(str(getattr(uploaded_file, "name", "") or "berkas"))
    try:
        fmt = upload_format(name)
    except UploadRejected as exc:
        return UploadOutcome(error=str(exc))
    checksum, size = _hash_upload(uploaded_file)
    if size > settings.INGEST_MAX_BYTES:
        limit = settings.INGEST_MAX_BYTES / (1024 * 1024)
        return UploadOutcome(error=f"Berkas melebihi batas ukuran ({limit:g} MB)")
    if size == 0:
        return UploadOutcome(error="Berkas kosong")
    version = (meta.source_version or "").strip() or "1"
    source_key = (meta.source_key or "").strip() or f"upload:{checksum}"
    source_type = meta.source_type or "upload"
    duplicate = _existing_duplicate(source_type, source_key, version, checksum)
    if duplicate is not None:
        return duplicate
    key = f"{settings.UPLOAD_KEY_PREFIX.strip('/')}/{checksum[:2]}/{checksum}/{name}"
    get_storage().put(key, uploaded_file)
    title = " ".join((meta.title or "").split()) or name.rsplit(".", 1)[0]
    payload = {
        "storage_key": key,
        "file_name": name,
        "title": title,
        "title_from_partner": bool(meta.title),
        "format": fmt,
        "mime_type": str(getattr(uploaded_file, "content_type", "") or ""),
        "source_type": source_type,
        "source_key": source_key,
        "source_version": version,
        "source_metadata": {k: v for k, v in meta.source_metadata.items() if v},
        "provenance": {
            "uploaded_by": str(user.pk) if getattr(user, "pk", None) else None,
            "classification": meta.classification,
            "category": meta.category,
            "skpa_unit": meta.skpa_unit,
            "collection_name": meta.collection_name,
            "source_system": meta.source_system,
        },
        "checksum": checksum,
        "size": size,
    }
    job = IngestionJob.objects.create(
        origin=JobOrigin.UPLOAD,
        state=JobState.QUEUED,
        payload=payload,
        lock_key=f"doc-uploaded:{source_key}",
        created_by=user if getattr(user, "pk", None) else None,
    )
    log.info("upload %s queued as job %s (%s bytes)", name, job.pk, size)
    return UploadOutcome(job=job)


def request_for_job(job: IngestionJob) -> IngestRequest:
    """The pipeline request an upload job's payload describes."""
    p = job.payload
    return IngestRequest(
        job=job,
        storage_key=p["storage_key"],
        format=p["format"],
        parser_file_name=p["file_name"],
        mime_type=p.get("mime_type") or "",
        title=p["title"],
        title_from_partner=bool(p.get("title_from_partner")),
        source_type=p["source_type"],
        source_key=p["source_key"],
        source_version=p["source_version"],
        source_metadata=dict(p.get("source_metadata") or {}),
        provenance=Provenance(**(p.get("provenance") or {})),
        lock_key=job.lock_key,
        reprocess_document_id=(
            UUID(p["reprocess_document_id"]) if p.get("reprocess_document_id") else None
        ),
    )


# --- claiming and progress -----------------------------------------------------------------


def fresh_run(**fields: Any) -> dict[str, Any]:
    """The job-row fields of a run that has not started: nothing of an earlier run is left."""
    return {"stage": "", "progress": 0, "error": "", "status_text": "", **fields}


def _claimable(retry_before: Any) -> IngestionJob | None:
    waiting = Q(state=JobState.QUEUED) | Q(state=JobState.DEFERRED, heartbeat_at__lt=retry_before)
    return (
        IngestionJob.objects.select_for_update(skip_locked=True)
        .filter(waiting, origin=JobOrigin.UPLOAD)
        .order_by("created_at")
        .first()
    )


def claim_next_upload_job() -> IngestionJob | None:
    """The oldest queued upload job (or a deferred one due a retry), now ``processing``."""
    now = timezone.now()
    with transaction.atomic():
        job = _claimable(now - timedelta(seconds=DEFER_RETRY_SECONDS))
        if job is None:
            return None
        fields = fresh_run(
            state=JobState.PROCESSING,
            attempts=job.attempts + 1,
            started_at=now,
            heartbeat_at=now,
            finished_at=None,
        )
        for name, value in fields.items():
            setattr(job, name, value)
        job.save()
    return job


def requeue_stale_jobs(older_than: timedelta) -> int:
    """Crash recovery: ``processing`` upload jobs without a heartbeat go back to the queue.

    Only when their document lock is free too: Postgres drops a dead worker's session
    lock, while a live worker on a long stage without progress (a large embed) still
    holds it. The lock tells a crash apart from a slow document; the timer alone cannot.
    """
    cutoff = timezone.now() - older_than
    stale = IngestionJob.objects.filter(
        origin=JobOrigin.UPLOAD, state=JobState.PROCESSING, heartbeat_at__lt=cutoff
    ).values_list("pk", "lock_key")
    orphans = [pk for pk, lock_key in stale if not (lock_key and held_elsewhere(lock_key))]
    count = IngestionJob.objects.filter(
        pk__in=orphans, state=JobState.PROCESSING, heartbeat_at__lt=cutoff
    ).update(**fresh_run(state=JobState.QUEUED))
    if count:
        log.warning("requeued %s stale upload jobs (no heartbeat since %s)", count, cutoff)
    return count


TERMINAL_STATES: dict[str, JobState] = {
    Milestone.INDEXED: JobState.DONE,
    Milestone.NEEDS_REVIEW: JobState.NEEDS_REVIEW,
    Milestone.SKIPPED: JobState.SKIPPED,
    Milestone.FAILED: JobState.FAILED,
}


def terminal_state(key: str) -> JobState | None:
    """The final job state of a terminal milestone or pipeline outcome (same names)."""
    return TERMINAL_STATES.get(key)


_APPEND_MILESTONE_SQL = """
    INSERT INTO {table} (job_id, seq, milestone, error, created_at)
    SELECT %s, coalesce(max(seq), 0) + 1, %s, %s, %s FROM {table} WHERE job_id = %s
"""


def record_milestone(
    job: IngestionJob, milestone: str, *, error: str | None = None, at: datetime | None = None
) -> None:
    """Append ``milestone`` to the job's timeline (``at``: when it happened, default now);
    joins the caller's transaction."""
    # One statement instead of read-max-then-insert: a document makes five or six of these,
    # each a round trip. As before, two concurrent writers of one job would make the
    # second fail on the (job, seq) constraint; one job has one writer at a time.
    sql = _APPEND_MILESTONE_SQL.format(table=connection.ops.quote_name(JobMilestone._meta.db_table))
    with connection.cursor() as cursor:
        cursor.execute(sql, [job.pk, milestone, error or "", at or timezone.now(), job.pk])


class JobProgressObserver(PipelineObserver):
    """Keeps a job row current: stage, progress, heartbeat, GPU-queue text, final state, and
    the job's timeline of milestones."""

    def __init__(self, job: IngestionJob) -> None:
        self.job = job

    def _update(self, **fields: Any) -> None:
        fields.setdefault("heartbeat_at", timezone.now())
        IngestionJob.objects.filter(pk=self.job.pk).update(**fields)
        for name, value in fields.items():
            setattr(self.job, name, value)

    def progress(self, stage: str, percent: int) -> None:
        self._update(stage=stage, progress=percent, status_text="")

    def status(self, text: str) -> None:
        self._update(status_text=text[:300])

    def gpu_wait(self, milliseconds: int) -> None:
        self._update(gpu_queue_ms=milliseconds)

    def milestone(
        self,
        key: str,
        *,
        document_id: UUID | None,
        meta: dict[str, Any] | None,
        error: str | None = None,
        at: datetime | None = None,
    ) -> None:
        fields: dict[str, Any] = {}
        if document_id is not None and self.job.document_id != document_id:
            fields["document_id"] = document_id
        state = terminal_state(key)
        if state is not None:
            fields.update(
                state=state,
                stage=key,
                progress=100,
                error=error or "",
                status_text="",
                finished_at=timezone.now(),
            )
        with transaction.atomic():
            record_milestone(self.job, key, error=error, at=at)
            if fields:
                self._update(**fields)


def record_result(job: IngestionJob, result: IngestResult) -> None:
    """Final bookkeeping the milestones cannot express: a deferred job waits for a retry."""
    if result.outcome is Outcome.DEFERRED:
        IngestionJob.objects.filter(pk=job.pk).update(
            state=JobState.DEFERRED,
            status_text="Ditunda — dokumen yang sama sedang diproses",
            heartbeat_at=timezone.now(),
        )
        return
    JOBS_PROCESSED.labels(origin=job.origin, outcome=result.outcome.value).inc()


def fail_crashed_job(job: IngestionJob) -> None:
    """The job whose run raised instead of answering: failed, so it can be re-run by hand."""
    now = timezone.now()
    IngestionJob.objects.filter(pk=job.pk, state=JobState.PROCESSING).update(
        state=JobState.FAILED,
        error=INTERNAL_ERROR,
        status_text="",
        progress=100,
        finished_at=now,
        heartbeat_at=now,
    )
    if job.document_id is not None:
        Document.objects.filter(pk=job.document_id, status=DocumentStatus.PROCESSING).update(
            status=DocumentStatus.FAILED, failure_reason=INTERNAL_ERROR
        )


def run_upload_job(job: IngestionJob) -> IngestResult:
    """Process one claimed upload job through the shared pipeline."""
    result = ingest(request_for_job(job), JobProgressObserver(job))
    record_result(job, result)
    return result


# --- what a person sees ----------------------------------------------------------------------


def recent_job_seconds(origin: str) -> float:
    """Median run time of the last finished jobs of ``origin``: the measured throughput."""
    rows = (
        IngestionJob.objects.filter(
            origin=origin, finished_at__isnull=False, started_at__isnull=False
        )
        .order_by("-finished_at")
        .values_list("started_at", "finished_at")[:RECENT_JOBS]
    )
    durations = [
        (end - start).total_seconds() for start, end in rows if start and end and end >= start
    ]
    return statistics.median(durations) if durations else float(DEFAULT_JOB_SECONDS)


def queue_info(job: IngestionJob) -> QueueInfo:
    """Where a job stands, in the words a person reads (:mod:`ingestion.queue_text`)."""
    job.refresh_from_db()
    if job.state in WAITING_STATES:
        position = (
            IngestionJob.objects.filter(
                origin=job.origin, state__in=WAITING_STATES, created_at__lt=job.created_at
            ).count()
            + 1
        )
        workers = int(settings.INGEST_WORKERS)
        eta = queue_text.eta_seconds(recent_job_seconds(job.origin), position, workers)
        deferred = job.status_text if job.state == JobState.DEFERRED else ""
        text = queue_text.waiting_text(position, eta, deferred_text=deferred)
        return QueueInfo(position=position, eta_seconds=eta, text=text)
    if job.state == JobState.PROCESSING:
        if job.status_text:
            return QueueInfo(position=None, eta_seconds=None, text=job.status_text)
        return QueueInfo(None, None, queue_text.processing_text(job.stage, job.progress))
    if job.state == JobState.FAILED:
        return QueueInfo(None, None, queue_text.failed_text(job.error))
    return QueueInfo(None, None, JobState(job.state).label)


# --- admin actions: re-run and reprocess -----------------------------------------------------


def requeue_job(job: IngestionJob, *, user: Any = None) -> bool:
    """failed → queued, and its failed document with it (the allowed transitions).

    Upload jobs are picked up by ``ingest_worker``; Kafka jobs by ``kafka_worker``, which
    re-runs queued and deferred Kafka jobs from their stored event.
    """
    with transaction.atomic():
        locked = IngestionJob.objects.select_for_update().get(pk=job.pk)
        if locked.state != JobState.FAILED:
            return False
        fields = fresh_run(state=JobState.QUEUED, started_at=None, finished_at=None)
        for name, value in fields.items():
            setattr(locked, name, value)
        locked.save()
        if locked.document_id is not None:
            Document.objects.filter(pk=locked.document_id, status=DocumentStatus.FAILED).update(
                status=DocumentStatus.QUEUED, failure_reason=""
            )
    log.info("job %s re-queued by %s", job.pk, getattr(user, "username", None))
    return True


def enqueue_reprocess(document: Document, *, user: Any = None) -> IngestionJob:
    """Queue the document's stored file through the pipeline again, corrected in place."""
    meta = document.metadata or {}
    payload = {
        "storage_key": document.storage_key,
        "file_name": document.file_name,
        "title": document.title,
        "title_from_partner": False,
        "format": document.format,
        "mime_type": document.mime_type,
        "source_type": document.source_type,
        "source_key": str(meta.get("source_key", "")),
        "source_version": str(meta.get("source_version", "")),
        "source_metadata": {},
        "provenance": {},
        "checksum": document.checksum,
        "size": document.size_bytes,
        "reprocess_document_id": str(document.pk),
    }
    with transaction.atomic():
        job = IngestionJob.objects.create(
            origin=JobOrigin.UPLOAD,
            state=JobState.QUEUED,
            document=document,
            payload=payload,
            lock_key=f"doc-uploaded:{payload['source_key']}",
            created_by=user if getattr(user, "pk", None) else None,
        )
        if document.status in (DocumentStatus.FAILED, DocumentStatus.ARCHIVED):
            Document.objects.filter(pk=document.pk).update(
                status=DocumentStatus.QUEUED, failure_reason=""
            )
    log.info("document %s queued for reprocessing as job %s", document.pk, job.pk)
    return job
