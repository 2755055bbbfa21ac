"""Review actions on parked chunks: correct, approve (re-embed and index), reject.

Every action is recorded in ``ReviewAction`` with the text before and after. When the last
pending chunk of a ``needs_review`` document is settled the document becomes ``indexed``,
its ``needs_review`` jobs become ``done`` (an ``indexed`` milestone on their timeline), and
:data:`ingestion.signals.job_settled_by_review` is sent for each, in the same transaction
(the Kafka app records the partner's indexed/done event on it).

The embedding is computed before the row lock is taken: a model call can take seconds and
must not hold a lock other reviewers wait on.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from ingestion.errors import StageError
from ingestion.jobs import record_milestone
from ingestion.models import (
    Chunk,
    Document,
    DocumentStatus,
    IngestionJob,
    JobState,
    ReviewAction,
    ReviewState,
)
from ingestion.pipeline.embed import embed_passages_cached, get_embedder, passage_text
from ingestion.pipeline.request import Milestone
from ingestion.signals import job_settled_by_review

log = logging.getLogger(__name__)


class ReviewError(Exception):
    """A review action that cannot be applied; ``str()`` is shown to the reviewer."""


class PassageEmbedder(Protocol):
    model_id: str

    def embed_passages(self, texts: list[str]) -> list[list[float]]: ...


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    document_id: UUID
    document_status: str
    pending_left: int
    became_indexed: bool
    approved: int = 0  # chunks approved by this call (bulk approval)


def _clean(text: str) -> str:
    cleaned = text.replace("\r\n", "\n").strip()
    if not cleaned:
        raise ReviewError("Teks potongan tidak boleh kosong.")
    return cleaned


def text_version(text: str) -> str:
    """A short fingerprint of a chunk's text as a reviewer saw it (sent back with the form)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _locked_pending_chunk(chunk_id: int, seen: str | None = None) -> Chunk:
    """The chunk, locked; ``seen`` is the text_version the reviewer's form was built from.

    A correction saved by another reviewer after that form was shown is refused: approving
    or rejecting would otherwise decide on (and overwrite) text this reviewer never saw.
    """
    chunk = Chunk.objects.select_for_update().filter(pk=chunk_id).first()
    if chunk is None:
        raise ReviewError("Potongan teks tidak ditemukan.")
    if chunk.indexed or chunk.review_state != ReviewState.PENDING:
        raise ReviewError("Potongan ini sudah ditinjau oleh orang lain.")
    if seen and seen != text_version(chunk.text):
        raise ReviewError(
            "Teks potongan ini baru saja dikoreksi peninjau lain; periksa teks terbaru lalu ulangi."
        )
    return chunk


def _action(chunk: Chunk, user: Any, action: str, before: str, after: str) -> ReviewAction:
    return ReviewAction(
        document_id=chunk.document_id,
        chunk=chunk,
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        text_before=before,
        text_after=after,
    )


def _record(chunk: Chunk, user: Any, action: str, before: str, after: str) -> None:
    _action(chunk, user, action, before, after).save()


def edit_chunk(chunk_id: int, *, user: Any, text: str, seen: str | None = None) -> Chunk:
    """Save a correction without deciding yet."""
    new_text = _clean(text)
    with transaction.atomic():
        chunk = _locked_pending_chunk(chunk_id, seen)
        if new_text != chunk.text:
            _record(chunk, user, ReviewAction.Action.EDIT, chunk.text, new_text)
            chunk.text = new_text
            # The vector was the old text's: kept, it would be read back for the new one
            # (embed.stored_vectors). Approval embeds the corrected text.
            chunk.embedding, chunk.embedding_model = None, ""
            chunk.save(update_fields=["text", "embedding", "embedding_model"])
    return chunk


def approve_chunk(
    chunk_id: int,
    *,
    user: Any,
    text: str | None = None,
    embedder: PassageEmbedder | None = None,
    seen: str | None = None,
) -> ReviewOutcome:
    """Approve one chunk (with an optional correction): embed it and make it searchable."""
    current = Chunk.objects.filter(pk=chunk_id).values_list("text", "heading_path").first()
    if current is None:
        raise ReviewError("Potongan teks tidak ditemukan.")
    final_text = _clean(text) if text is not None else current[0]
    vector, model_id = _embed([(current[1], final_text)], embedder)[0]
    with transaction.atomic():
        chunk = _locked_pending_chunk(chunk_id, seen)
        _approve_locked(chunk, user, final_text, vector, model_id)
        return _settle(chunk.document_id)


def reject_chunk(chunk_id: int, *, user: Any, seen: str | None = None) -> ReviewOutcome:
    """Keep the chunk but never index it."""
    with transaction.atomic():
        chunk = _locked_pending_chunk(chunk_id, seen)
        chunk.review_state = ReviewState.REJECTED
        chunk.save(update_fields=["review_state"])
        _record(chunk, user, ReviewAction.Action.REJECT, chunk.text, chunk.text)
        return _settle(chunk.document_id)


def pending_above(document_id: UUID, above: float | None = None) -> Any:
    """The document's pending chunks, only those with OCR confidence over ``above`` if set."""
    chunks = Chunk.objects.filter(
        document_id=document_id, indexed=False, review_state=ReviewState.PENDING
    )
    return chunks if above is None else chunks.filter(ocr_confidence__gt=above)


def approve_all(
    document_id: UUID,
    *,
    user: Any,
    embedder: PassageEmbedder | None = None,
    above: float | None = None,
) -> ReviewOutcome:
    """Approve every pending chunk of a document with its current (saved) text.

    With ``above``, only chunks whose OCR confidence is over it ("Setujui semua di atas X");
    each approval is its own ``ReviewAction`` either way.
    """
    pending = list(pending_above(document_id, above).values_list("pk", "text", "heading_path"))
    vectors = _embed([(heading, text) for _, text, heading in pending], embedder)
    with transaction.atomic():
        locked = {
            chunk.pk: chunk
            for chunk in Chunk.objects.select_for_update().filter(
                pk__in=[pk for pk, _, _ in pending], indexed=False, review_state=ReviewState.PENDING
            )
        }
        approved: list[Chunk] = []
        for (chunk_id, text, _), (vector, model_id) in zip(pending, vectors, strict=True):
            chunk = locked.get(chunk_id)
            if chunk is None:
                continue  # settled meanwhile by another reviewer
            if chunk.text != text:
                # Corrected meanwhile: embed what is stored now, not the stale text.
                vector, model_id = _embed([(chunk.heading_path, chunk.text)], embedder)[0]
            _mark_approved(chunk, vector, model_id)
            approved.append(chunk)
        Chunk.objects.bulk_update(approved, APPROVED_FIELDS, batch_size=500)
        ReviewAction.objects.bulk_create(
            [
                _action(chunk, user, ReviewAction.Action.APPROVE, chunk.text, chunk.text)
                for chunk in approved
            ],
            batch_size=500,
        )
        return replace(_settle(document_id), approved=len(approved))


def _embed(
    passages: Sequence[tuple[str, str]], embedder: PassageEmbedder | None
) -> list[tuple[list[float], str]]:
    """Vectors for (heading_path, text) pairs, embedded exactly as the pipeline does."""
    if not passages:
        return []
    started = time.monotonic()
    texts = [passage_text(heading, text) for heading, text in passages]
    try:
        engine = embedder or get_embedder()
        vectors = embed_passages_cached(texts, engine)  # type: ignore[arg-type]
    except StageError as exc:
        # Gateway down, backpressure or a verdict: the reviewer reads why and tries again;
        # nothing was locked or written yet, so the chunk stays pending.
        log.warning("review embedding failed: %s", exc.reason)
        raise ReviewError(
            f"Vektor tidak dapat dibuat ({exc.reason}); potongan belum disetujui, coba lagi."
        ) from exc
    log.info("review embedded %s chunk(s) in %.0f ms", len(texts), _ms(started))
    return [(list(vector), engine.model_id) for vector in vectors]


APPROVED_FIELDS = ["text", "embedding", "embedding_model", "indexed", "review_state"]


def _mark_approved(chunk: Chunk, vector: list[float], model_id: str) -> None:
    chunk.embedding = vector
    chunk.embedding_model = model_id
    chunk.indexed = True
    chunk.review_state = ReviewState.APPROVED


def _approve_locked(chunk: Chunk, user: Any, text: str, vector: list[float], model_id: str) -> None:
    before = chunk.text
    if text != before:
        _record(chunk, user, ReviewAction.Action.EDIT, before, text)
    chunk.text = text
    _mark_approved(chunk, vector, model_id)
    chunk.save(update_fields=APPROVED_FIELDS)
    _record(chunk, user, ReviewAction.Action.APPROVE, before, text)


def _settle(document_id: UUID) -> ReviewOutcome:
    """Index the document once nothing is pending; runs inside the caller's transaction."""
    document = Document.objects.select_for_update().get(pk=document_id)
    pending_left = Chunk.objects.filter(
        document_id=document_id, indexed=False, review_state=ReviewState.PENDING
    ).count()
    became_indexed = pending_left == 0 and document.status == DocumentStatus.NEEDS_REVIEW
    if became_indexed:
        document.status = DocumentStatus.INDEXED
        document.indexed_at = timezone.now()
        document.save(update_fields=["status", "indexed_at", "updated_at"])
        _finish_jobs(document)
        log.info("document %s indexed after review", document_id)
    return ReviewOutcome(document.pk, document.status, pending_left, became_indexed)


def _finish_jobs(document: Document) -> None:
    jobs = list(
        IngestionJob.objects.select_for_update().filter(
            document=document, state=JobState.NEEDS_REVIEW
        )
    )
    for job in jobs:
        job.state = JobState.DONE
        job.status_text = ""
        job.save(update_fields=["state", "status_text"])
        record_milestone(job, Milestone.INDEXED)
        # Same transaction: what receivers record commits iff the status change does.
        job_settled_by_review.send(sender=IngestionJob, job=job)


def _ms(started: float) -> float:
    return (time.monotonic() - started) * 1000
