"""One file of a bulk import, through exactly the admin upload's road.

:func:`ingestion.jobs.enqueue_upload` stores the bytes and queues an upload job (or names
the document or waiting job they duplicate); the importer claims that job itself and runs
:func:`ingestion.jobs.run_upload_job`, so identity, editions, the timeline and the index
are the upload's. The source key is ``import:<collection>:<relpath>``: stable across runs,
so a second run finds what the first one indexed (skipped, nothing written) and retries
what failed (identity rule 2 corrects the failed row in place).
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from django.core.files import File
from django.utils import timezone

from ingestion.bulk.items import ImportItem
from ingestion.errors import INTERNAL_ERROR
from ingestion.formats import FORMAT_BY_EXTENSION
from ingestion.jobs import (
    UploadMeta,
    UploadOutcome,
    enqueue_upload,
    fail_crashed_job,
    fresh_run,
    run_upload_job,
    safe_file_name,
)
from ingestion.models import COMPLETED_STATUSES, Document, IngestionJob, JobState
from ingestion.pipeline.request import IngestResult, Outcome

log = logging.getLogger(__name__)

SOURCE_SYSTEM = "import_corpus"  # sourceSystem of every imported copy (see search.copies)
ALREADY_INDEXED = "Sudah terindeks"
DUPLICATE = "Duplikat dari"
NOT_A_REGULATION = "Bukan peraturan (tidak ada jenis, nomor dan tahun)"
IN_PROGRESS = "Sedang diproses oleh pekerja lain"
DEFERRED_TOO_LONG = "Ditunda terlalu lama — dokumen yang sama sedang diproses"
DEFER_WAIT_SECONDS = 1.0
DEFER_ATTEMPTS = 60


class ItemStatus(StrEnum):
    INDEXED = "indexed"
    NEEDS_REVIEW = "needs_review"
    SKIPPED = "skipped"
    FAILED = "failed"
    PLANNED = "planned"  # --dry-run: what a real run would do, in ``reason``
    PUBLISHED = "published"  # --via-kafka: a doc.uploaded record is on the topic


@dataclass(frozen=True, slots=True)
class ImportSettings:
    source_type: str = "JDIH"
    collection: str = "import_corpus"


@dataclass(frozen=True, slots=True)
class ItemResult:
    item: ImportItem
    status: ItemStatus
    reason: str = ""
    document_id: str = ""
    citation: str = ""
    regulation: bool | None = None  # False: indexed, but no regulation key was found
    seconds: float = 0.0


def source_key(item: ImportItem, options: ImportSettings) -> str:
    return f"import:{options.collection}:{item.relpath}"


def upload_meta(item: ImportItem, options: ImportSettings) -> UploadMeta:
    return UploadMeta(
        title=item.title,
        source_type=options.source_type,
        source_key=source_key(item, options),
        source_version="1",
        source_metadata=dict(item.metadata),
        classification=None,
    )


def import_item(item: ImportItem, options: ImportSettings) -> ItemResult:
    """Import one file; never raises (a crash fails only this file)."""
    started = time.monotonic()
    try:
        result = _import(item, options)
    except Exception:
        log.exception("import %s: unexpected failure", item.where)
        result = ItemResult(item, ItemStatus.FAILED, INTERNAL_ERROR)
    return _timed(result, time.monotonic() - started)


def _timed(result: ItemResult, seconds: float) -> ItemResult:
    return ItemResult(
        result.item,
        result.status,
        result.reason,
        result.document_id,
        result.citation,
        result.regulation,
        round(seconds, 3),
    )


def _import(item: ImportItem, options: ImportSettings) -> ItemResult:
    if item.problem:
        return ItemResult(item, ItemStatus.FAILED, item.problem)
    with item.path.open("rb") as handle:
        upload = File(handle, name=item.path.name)
        outcome = enqueue_upload(upload, meta=_with_provenance(item, options), user=None)
    return _settle(item, options, outcome)


def _with_provenance(item: ImportItem, options: ImportSettings) -> UploadMeta:
    meta = upload_meta(item, options)
    meta.collection_name = options.collection
    meta.source_system = SOURCE_SYSTEM
    return meta


def _settle(item: ImportItem, options: ImportSettings, outcome: UploadOutcome) -> ItemResult:
    if outcome.error:
        return ItemResult(item, ItemStatus.FAILED, outcome.error)
    if outcome.document is not None:
        return _skipped(item, options, outcome.document)
    assert outcome.job is not None
    result = _run(outcome.job)
    if result is None:
        return ItemResult(item, ItemStatus.SKIPPED, IN_PROGRESS)
    return _finished(item, options, result)


def _skipped(item: ImportItem, options: ImportSettings, document: Document) -> ItemResult:
    own = document.source_key == source_key(item, options)
    reason = ALREADY_INDEXED if own else f"{DUPLICATE} {document.title}"
    return ItemResult(item, ItemStatus.SKIPPED, reason, str(document.pk), document.citation, None)


def _claim(job: IngestionJob) -> bool:
    """queued/deferred → processing, unless a running ``ingest_worker`` took it first."""
    now = timezone.now()
    fields = fresh_run(
        state=JobState.PROCESSING,
        attempts=job.attempts + 1,
        started_at=now,
        heartbeat_at=now,
        finished_at=None,
    )
    waiting = (JobState.QUEUED, JobState.DEFERRED)
    claimed = IngestionJob.objects.filter(pk=job.pk, state__in=waiting).update(**fields)
    if claimed:
        job.refresh_from_db()
    return bool(claimed)


def _run(job: IngestionJob) -> IngestResult | None:
    """Run the job to a terminal outcome, waiting out deferrals (the same bytes being
    indexed by another worker of this import). None: someone else runs it."""
    for _attempt in range(DEFER_ATTEMPTS):
        if not _claim(job):
            return None
        try:
            result = run_upload_job(job)
        except Exception:
            log.exception("import job %s: crashed", job.pk)
            fail_crashed_job(job)
            return IngestResult(outcome=Outcome.FAILED, error=INTERNAL_ERROR)
        if result.terminal:
            return result
        time.sleep(DEFER_WAIT_SECONDS)
    return IngestResult(outcome=Outcome.FAILED, error=DEFERRED_TOO_LONG)


_STATUS_OF: dict[Outcome, ItemStatus] = {
    Outcome.INDEXED: ItemStatus.INDEXED,
    Outcome.NEEDS_REVIEW: ItemStatus.NEEDS_REVIEW,
    Outcome.SKIPPED: ItemStatus.SKIPPED,
    Outcome.FAILED: ItemStatus.FAILED,
}


def _finished(item: ImportItem, options: ImportSettings, result: IngestResult) -> ItemResult:
    document = (
        Document.objects.filter(pk=result.document_id).first() if result.document_id else None
    )
    if result.outcome is Outcome.SKIPPED and document is not None:
        return _skipped(item, options, document)
    status = _STATUS_OF.get(result.outcome, ItemStatus.FAILED)
    if document is None:
        return ItemResult(item, status, result.error or "")
    regulation = bool(document.regulation_key) if status != ItemStatus.FAILED else None
    reason = result.error or ("" if regulation is not False else NOT_A_REGULATION)
    return ItemResult(item, status, reason, str(document.pk), document.citation, regulation)


# --- --dry-run -------------------------------------------------------------------------------

PLAN_NEW = "Akan diimpor"
PLAN_RETRY = "Akan diulang (gagal sebelumnya)"


def plan_item(item: ImportItem, options: ImportSettings) -> ItemResult:
    """What :func:`import_item` would do, with no write anywhere."""
    if item.problem:
        return ItemResult(item, ItemStatus.FAILED, item.problem)
    name = safe_file_name(item.path.name)
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if extension not in FORMAT_BY_EXTENSION:
        return ItemResult(
            item, ItemStatus.FAILED, f"Format berkas tidak didukung: .{extension or '?'}"
        )
    checksum, size = _hash(item.path)
    if size == 0:
        return ItemResult(item, ItemStatus.FAILED, "Berkas kosong")
    completed = Document.objects.filter(checksum=checksum, status__in=COMPLETED_STATUSES)
    done = completed.filter(metadata__source_version="1").first()
    if done is not None:
        return _skipped(item, options, done)
    key = source_key(item, options)
    earlier = Document.objects.filter(Document.of_source(options.source_type, key))
    return ItemResult(item, ItemStatus.PLANNED, PLAN_RETRY if earlier.exists() else PLAN_NEW)


def _hash(path: Path) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size
