"""The one pipeline: fetch → identity → parse → OCR → chunk → embed → index.

Both the Kafka worker and the admin upload worker call :func:`ingest`. Milestones follow
the contract's "Lifecycle berurutan": ``fetched`` is reported as soon as the bytes are
here and ``ocr_pending`` before each actual OCR attempt; ``parsed``, ``ocr``, ``chunked``
and ``embedded`` are held back and reported only once the index transaction committed,
followed by exactly one terminal milestone. So a failure after fetch reports ``fetched``,
any ``ocr_pending`` and ``failed`` — nothing in between — and retries add no milestones.
Lock contention returns ``deferred`` with no milestone at all.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import groupby
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction

from aceh_rag.platform.context import call_context
from aceh_rag.platform.metrics import STAGE_DURATION
from ingestion.errors import INTERNAL_ERROR, PermanentError, StageError
from ingestion.models import Document, DocumentStatus
from ingestion.pipeline import identity
from ingestion.pipeline.base import Block, ChunkDraft, ParsedDocument
from ingestion.pipeline.chunk import chunk_document
from ingestion.pipeline.embed import get_embedder
from ingestion.pipeline.fetch import fetch
from ingestion.pipeline.furniture import tidy_pages
from ingestion.pipeline.index import IndexSummary, stored_summary, summarize, write_document
from ingestion.pipeline.late_chunk import document_vectors
from ingestion.pipeline.locks import advisory_lock
from ingestion.pipeline.ocr.step import OcrOutcome, run_ocr
from ingestion.pipeline.ocr.words import mend_foreign_letters
from ingestion.pipeline.parse import ParseLimits, parse, render_page_image
from ingestion.pipeline.regions import attach_regions
from ingestion.pipeline.request import (
    PROGRESS,
    CompositeObserver,
    IngestRequest,
    IngestResult,
    Milestone,
    Outcome,
    PipelineObserver,
    Provenance,
    as_composite,
)
from ingestion.pipeline.retry import RetryPolicy, with_retries
from ingestion.relations.graph import refresh_document
from ingestion.storage import FetchedFile

__all__ = [
    "CompositeObserver",
    "IngestRequest",
    "IngestResult",
    "Milestone",
    "Outcome",
    "PipelineObserver",
    "Provenance",
    "ingest",
]

log = logging.getLogger(__name__)

T = TypeVar("T")
NO_TEXT = "Tidak ada teks yang dapat diindeks dalam dokumen"

# Held milestones with the moment each stage really ended (their events carry it as ``ts``).
Pending = list[tuple[Milestone, dict[str, Any] | None, datetime]]


def _timed(stage: str, action: Callable[[], T]) -> T:
    started = time.monotonic()
    try:
        return action()
    finally:
        elapsed = time.monotonic() - started
        STAGE_DURATION.labels(stage=stage).observe(elapsed)
        log.info("stage %s took %.3fs", stage, elapsed)


def _context_fields(request: IngestRequest) -> dict[str, Any]:
    job = request.job
    if job is None:
        return {"surface": "ingestion", "traffic_class": "batch"}
    return {
        "surface": "ingestion",
        "traffic_class": "batch",
        "job_id": str(job.partner_job_id or job.id),
        "user_id": str(job.created_by_id) if job.created_by_id else None,
    }


def ingest(request: IngestRequest, observer: PipelineObserver | None = None) -> IngestResult:
    """Run one document through the pipeline under its per-document lock."""
    obs = as_composite(observer)
    started = time.monotonic()
    with call_context(**_context_fields(request)), advisory_lock(request.lock_key) as acquired:
        if not acquired:
            return IngestResult(outcome=Outcome.DEFERRED)
        with tempfile.TemporaryDirectory(prefix="ingest-") as tmp:
            result = _run(request, obs, Path(tmp))
    log.info(
        "ingest %s: %s (document %s, %s/%s chunks) in %.2fs",
        request.storage_key,
        result.outcome,
        result.document_id,
        result.indexed_count,
        result.chunk_count,
        time.monotonic() - started,
    )
    return result


def _fail(
    obs: CompositeObserver, document_id: UUID | None, reason: str, *, permanent: bool
) -> IngestResult:
    obs.milestone(Milestone.FAILED, document_id=document_id, meta=None, error=reason)
    return IngestResult(
        outcome=Outcome.FAILED, document_id=document_id, error=reason, permanent=permanent
    )


def _run(request: IngestRequest, obs: CompositeObserver, tmp: Path) -> IngestResult:
    policy = RetryPolicy.from_settings()
    try:
        fetched = _timed(
            "fetch",
            lambda: fetch(
                request.storage_key,
                max_bytes=settings.INGEST_MAX_BYTES,
                dest_dir=tmp,
                policy=policy,
            ),
        )
    except StageError as exc:
        return _fail(obs, None, exc.reason, permanent=exc.permanent)
    decision = identity.decide(request, fetched.sha256)
    log.info("identity %s: %s (%s)", request.source_key, decision.action, decision.why)
    # Like lock contention, a deferral reports no milestone; the caller retries later.
    deferred = IngestResult(outcome=Outcome.DEFERRED, checksum=fetched.sha256)
    if decision.action is identity.Action.DEFER:
        return deferred
    document = None
    if decision.action not in (identity.Action.SKIP, identity.Action.FINISHED):
        document = _prepare(decision, request, fetched)
        if document is None:
            return deferred
    obs.progress("fetched", PROGRESS[Milestone.FETCHED])
    obs.milestone(Milestone.FETCHED, document_id=None, meta=None)
    with call_context(doc_hash=fetched.sha256):
        return _after_fetch(request, obs, fetched, decision, document, policy)


def _prepare(
    decision: identity.Decision, request: IngestRequest, fetched: FetchedFile
) -> Document | None:
    """The row to write into, or None when a concurrent run of the same bytes and version
    under another key created it first (the unique (checksum, version) constraint): a
    retry then finds that row and follows rule 3."""
    try:
        with transaction.atomic():
            return identity.prepare(decision, request, fetched)
    except IntegrityError:
        log.warning("ingest %s: the same bytes were just stored by another run", request.source_key)
        return None


def _after_fetch(
    request: IngestRequest,
    obs: CompositeObserver,
    fetched: FetchedFile,
    decision: identity.Decision,
    document: Document | None,
    policy: RetryPolicy,
) -> IngestResult:
    if decision.action is identity.Action.FINISHED:
        assert decision.document is not None
        return _finished_before(obs, decision.document, fetched.sha256)
    if decision.action is identity.Action.SKIP:
        assert decision.document is not None
        doc = decision.document
        if decision.same_source:
            doc = identity.apply_unchanged(doc, request)
            _refresh_relations(doc)  # a merged status_berlaku or nomor may change the graph
        obs.milestone(Milestone.SKIPPED, document_id=doc.pk, meta={"chunkCount": 0})
        return IngestResult(outcome=Outcome.SKIPPED, document_id=doc.pk, checksum=fetched.sha256)
    assert document is not None
    fields = None
    if decision.action is identity.Action.CORRECT:
        fields = identity.corrected_fields(document, request, fetched)
    try:
        return _process(request, obs, fetched, document, fields, policy)
    except StageError as exc:
        identity.mark_failed(document, exc.reason)
        return _fail(obs, document.pk, exc.reason, permanent=exc.permanent)
    except Exception:
        log.exception("ingest %s: unexpected failure", request.storage_key)
        identity.mark_failed(document, INTERNAL_ERROR)
        return _fail(obs, document.pk, INTERNAL_ERROR, permanent=False)


def _parse(request: IngestRequest, fetched: FetchedFile) -> ParsedDocument:
    return parse(fetched.path, request.format, ParseLimits.from_settings())


def _with_ocr(
    parsed: ParsedDocument, fetched: FetchedFile, obs: CompositeObserver, policy: RetryPolicy
) -> tuple[list[Block], OcrOutcome]:
    ocr = run_ocr(
        fetched.path,
        list(parsed.ocr_pages),
        render=render_page_image,
        observer=obs,
        policy=policy,
        dpi=int(settings.OCR_RENDER_DPI),
        max_pixels=int(settings.INGEST_MAX_IMAGE_PIXELS),
    )
    # OCR pages carry no parsed text; their blocks go in page order among the others.
    ocr_pages = set(parsed.ocr_pages)
    kept = [b for b in parsed.blocks if b.page not in ocr_pages]
    merged = sorted([*kept, *ocr.blocks], key=lambda b: b.page)  # stable: order within a page
    # A scan's running heads, folios and catchwords go as a text layer's do in the parser.
    pages = [list(group) for _, group in groupby(merged, key=lambda b: b.page)]
    tidy_pages(pages)
    blocks = [block for page in pages for block in page]
    mend_foreign_letters([b for b in blocks if b.page in ocr_pages], blocks)
    return blocks, ocr


def _chunk(blocks: list[Block]) -> list[ChunkDraft]:
    drafts = chunk_document(
        blocks,
        budget_tokens=int(settings.CHUNK_TOKEN_BUDGET),
        overlap_tokens=int(settings.CHUNK_OVERLAP_TOKENS),
    )
    attach_regions(drafts, blocks)
    return drafts


def _refresh_relations(document: Document) -> None:
    try:
        with transaction.atomic():
            refresh_document(document)
    except Exception:
        log.exception("relations of %s not refreshed; relink_regulations repairs them", document.pk)


def _process(
    request: IngestRequest,
    obs: CompositeObserver,
    fetched: FetchedFile,
    document: Document,
    fields: dict[str, Any] | None,
    policy: RetryPolicy,
) -> IngestResult:
    pending: Pending = []
    parsed = _timed("parse", lambda: _parse(request, fetched))
    obs.progress("parsed", PROGRESS[Milestone.PARSED])
    pending.append((Milestone.PARSED, None, datetime.now(UTC)))
    blocks = parsed.blocks
    if parsed.ocr_pages:
        blocks, ocr = _timed("ocr", lambda: _with_ocr(parsed, fetched, obs, policy))
        confidence = ocr.min_confidence
        ocr_meta = None if confidence is None else {"ocrConfidence": confidence}
        pending.append((Milestone.OCR, ocr_meta, datetime.now(UTC)))
    drafts = _timed("chunk", lambda: _chunk(blocks))
    if not drafts:
        raise PermanentError(NO_TEXT, code="no_text")
    obs.progress("chunked", PROGRESS[Milestone.CHUNKED])
    pending.append((Milestone.CHUNKED, {"chunkCount": len(drafts)}, datetime.now(UTC)))
    embedder = get_embedder()
    vectors, unit_vectors = _timed(
        "embed",
        lambda: with_retries(lambda: document_vectors(drafts, embedder), policy, what="embed"),
    )
    threshold = float(settings.OCR_REVIEW_THRESHOLD)
    embedded = {"chunkCount": summarize(drafts, threshold).indexed_count}
    pending.append((Milestone.EMBEDDED, embedded, datetime.now(UTC)))
    obs.progress("embedded", PROGRESS[Milestone.EMBEDDED])
    # The relations commit with the chunks they were read from (crash-safe), but their
    # failure must not undo the index: they run in a savepoint.
    with transaction.atomic():
        summary = _timed(
            "index",
            lambda: write_document(
                document,
                drafts,
                vectors,
                model_id=embedder.model_id,
                threshold=threshold,
                page_count=parsed.page_count,
                fields=identity.written_by(request, document, fields),
                unit_vectors=unit_vectors,
                title_from_heading=not request.title_from_partner,
            ),
        )
        _timed("relations", lambda: _refresh_relations(document))
    return _report_indexed(obs, document, pending, summary, fetched.sha256)


def _report_indexed(
    obs: CompositeObserver,
    document: Document,
    pending: Pending,
    summary: IndexSummary,
    checksum: str,
) -> IngestResult:
    """The held stages, then indexed or needs_review: the events of a committed index."""
    for key, held_meta, at in pending:
        obs.milestone(key, document_id=document.pk, meta=held_meta, at=at)
    terminal = (
        Milestone.NEEDS_REVIEW
        if summary.status == DocumentStatus.NEEDS_REVIEW
        else Milestone.INDEXED
    )
    meta: dict[str, Any] = {"chunkCount": summary.indexed_count}
    if summary.ocr_confidence is not None:
        meta["ocrConfidence"] = summary.ocr_confidence
    obs.milestone(terminal, document_id=document.pk, meta=meta)
    return IngestResult(
        outcome=Outcome(terminal.value),
        document_id=document.pk,
        chunk_count=summary.chunk_count,
        indexed_count=summary.indexed_count,
        ocr_confidence=summary.ocr_confidence,
        checksum=checksum,
    )


def _finished_before(obs: CompositeObserver, document: Document, checksum: str) -> IngestResult:
    """This job indexed these bytes and its worker died before the outcome was saved: the
    stored document's stages are reported as the run that wrote them would have, stamped
    now (that run's times were lost with it)."""
    summary = stored_summary(document)
    now = datetime.now(UTC)
    pending: Pending = [(Milestone.PARSED, None, now)]
    if summary.ocr_confidence is not None:
        pending.append((Milestone.OCR, {"ocrConfidence": summary.ocr_confidence}, now))
    pending.append((Milestone.CHUNKED, {"chunkCount": summary.chunk_count}, now))
    pending.append((Milestone.EMBEDDED, {"chunkCount": summary.indexed_count}, now))
    return _report_indexed(obs, document, pending, summary, checksum)
