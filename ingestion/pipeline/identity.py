"""Document identity and versioning: the contract's rules, enforced in this one place.

Given the fetched bytes' sha256 and the request's (source_type, source_key, source_version):

1. Unchanged content: a completed row (indexed, needs_review, archived) with the same
   type, source_key and checksum, at any version, is not re-ingested. Its sourceMetadata is
   merged, its title replaced only by a partner fileName, its title labels rebuilt; nothing
   else changes. Outcome ``skipped`` with the existing document id.
2. Same (type, version, key) row exists with other bytes (or not completed): corrected in
   place — same document id, chunks replaced atomically by the indexer.
3. Same checksum and version under another key: the database keeps (checksum, version)
   unique too, so a completed row is a duplicate (skipped, but nothing of this request is
   written into that other source's row) and an unfinished one is reused — unless another
   worker holds that row's document lock, then this request is deferred.
4. Otherwise a new Document row: a new edition when the key already has other versions.

Rule 1 has one exception: the unchanged row's content was written by this very job. Its
worker died after the index committed and before the outcome was saved, and the job is
being run again; the document is reported as that run would have reported it
(``FINISHED``), not as skipped. The index's transaction records the job that wrote a
document's content (``written_by``); a job that merely pointed at the row, one that failed
on it before another job indexed it, is skipped like any other.

Admin uploads without a source key use ``source_key = upload:<sha256>`` (see
ingestion.jobs). The contract keeps their old SHA-256 + version dedupe, so for them rule 1
applies at the same version only: the same bytes uploaded as a new version are a new edition.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db import transaction
from django.db.models import Q

from ingestion.legal.identity import document_citation, title_labels
from ingestion.models import COMPLETED_STATUSES, Document, DocumentStatus
from ingestion.pipeline.locks import held_elsewhere
from ingestion.pipeline.request import IngestRequest
from ingestion.storage import FetchedFile

log = logging.getLogger(__name__)


class Action(StrEnum):
    NEW = "new"
    CORRECT = "correct"  # same document row, content replaced
    SKIP = "skip"  # unchanged content
    FINISHED = "finished"  # unchanged content this very job indexed before its worker died
    DEFER = "defer"  # the row to reuse belongs to a document another worker is processing


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    document: Document | None
    why: str
    # False for a duplicate found under another source: its row takes none of our metadata.
    same_source: bool = True


def _candidates(request: IngestRequest, checksum: str) -> list[Document]:
    """Every row rules 1-3 could pick, in one read: the editions of this key with these
    bytes or this version, and the rows of these bytes at this version (a handful)."""
    by_key = Document.of_source(request.source_type, request.source_key)
    same_version = Q(metadata__source_version=request.source_version)
    return list(
        Document.objects.filter(
            (by_key & (Q(checksum=checksum) | same_version)) | (Q(checksum=checksum) & same_version)
        )
    )


def decide(request: IngestRequest, checksum: str) -> Decision:
    """Which of the rules above applies. Read-only; the caller holds the document lock."""
    if request.reprocess_document_id is not None:
        target = Document.objects.filter(pk=request.reprocess_document_id).first()
        if target is not None:
            return Decision(Action.CORRECT, target, "reprocess requested")
    rows = _candidates(request, checksum)
    version = request.source_version
    own = [
        d
        for d in rows
        if d.source_type == request.source_type
        and d.metadata.get("source_key") == request.source_key
    ]
    unchanged = [d for d in own if d.checksum == checksum and d.status in COMPLETED_STATUSES]
    if is_content_key(request, checksum):
        unchanged = [d for d in unchanged if d.metadata.get("source_version") == version]
    own_work = [d for d in unchanged if _written_by_this_job(request, d)]
    if own_work:
        return Decision(Action.FINISHED, own_work[0], "indexed by this job before a crash")
    if unchanged:
        return Decision(Action.SKIP, max(unchanged, key=_created), "unchanged content")
    # Rules 2 and 3 find at most one row (both are unique constraints); the newest is what
    # QuerySet.first() picked under Document's default ordering.
    same_identity = [d for d in own if d.metadata.get("source_version") == version]
    if same_identity:
        return Decision(
            Action.CORRECT, max(same_identity, key=_created), "same type, key and version"
        )
    same_bytes = [
        d for d in rows if d.checksum == checksum and d.metadata.get("source_version") == version
    ]
    if same_bytes:
        return _same_bytes_elsewhere(max(same_bytes, key=_created))
    return Decision(Action.NEW, None, "new document or new edition")


def _created(document: Document) -> Any:
    return document.created_at


def is_content_key(request: IngestRequest, checksum: str) -> bool:
    """An admin upload whose key was derived from its bytes (no source key given)."""
    return request.source_key == f"upload:{checksum}"


def _same_bytes_elsewhere(document: Document) -> Decision:
    """Rule 3: the (checksum, version) row of another source."""
    if document.status in COMPLETED_STATUSES:
        return Decision(Action.SKIP, document, "same checksum and version", same_source=False)
    other_key = f"doc-uploaded:{(document.metadata or {}).get('source_key', '')}"
    if held_elsewhere(other_key):
        # Correcting it now would have two workers writing one row's chunks.
        return Decision(Action.DEFER, document, "same bytes being processed under another key")
    return Decision(Action.CORRECT, document, "unfinished row with the same bytes")


WRITTEN_BY = "written_by_job"  # metadata key: the job whose run wrote the current content


def written_by(
    request: IngestRequest, document: Document, fields: dict[str, Any] | None
) -> dict[str, Any]:
    """``fields`` for ``write_document`` with the job that writes the content recorded in
    the metadata, so the record commits with the chunks it describes."""
    fields = dict(fields or {})
    if request.job is not None:
        metadata = fields.get("metadata", document.metadata)
        fields["metadata"] = {**metadata, WRITTEN_BY: str(request.job.pk)}
    return fields


def _written_by_this_job(request: IngestRequest, document: Document) -> bool:
    indexed = document.status in (DocumentStatus.INDEXED, DocumentStatus.NEEDS_REVIEW)
    job = request.job
    return indexed and job is not None and document.metadata.get(WRITTEN_BY) == str(job.pk)


def merged_source(stored: dict[str, Any], request: IngestRequest) -> dict[str, Any]:
    """The stored metadata.source with the request's sourceMetadata and provenance merged."""
    source = dict(stored.get("source") or {})
    source.update(request.source_metadata)
    source.update(request.provenance.source_fields())
    return source


def apply_unchanged(document: Document, request: IngestRequest) -> Document:
    """Rule 1's only writes: sourceMetadata, a partner title, the title labels."""
    with transaction.atomic():
        doc = Document.objects.select_for_update().get(pk=document.pk)
        metadata = dict(doc.metadata)
        source = dict(metadata.get("source") or {})
        source.update(request.source_metadata)  # identity and access fields stay as they are
        metadata["source"] = source
        doc.metadata = metadata
        if request.title_from_partner and request.title:
            doc.title = request.title[:500]
        doc.title_labels = title_labels(doc.title, source)
        doc.citation = document_citation(doc.title, source) or doc.citation
        doc.save(update_fields=["metadata", "title", "title_labels", "citation", "updated_at"])
    log.info("identity: %s unchanged; metadata merged into %s", request.source_key, doc.pk)
    return doc


def new_document(request: IngestRequest, fetched: FetchedFile) -> Document:
    """Rule 4: the row is created now (status processing) so failures have a home."""
    source = merged_source({}, request)
    provenance = request.provenance
    return Document.objects.create(
        source_type=request.source_type,
        metadata={
            "source_key": request.source_key,
            "source_version": request.source_version,
            "source": source,
        },
        registry_id=provenance.registry_id or "",
        collection_id=provenance.collection_id or "",
        collection_name=provenance.collection_name or "",
        uploaded_by=provenance.uploaded_by or "",
        title=request.title[:500],
        title_labels=title_labels(request.title, source),
        citation=document_citation(request.title, source),
        file_name=request.parser_file_name[:300],
        mime_type=request.mime_type[:150],
        format=request.format,
        storage_key=request.storage_key,
        checksum=fetched.sha256,
        size_bytes=fetched.size,
        status=DocumentStatus.PROCESSING,
    )


def corrected_fields(
    document: Document, request: IngestRequest, fetched: FetchedFile
) -> dict[str, Any]:
    """Rule 2's new field values, applied by the indexer in the same transaction as the
    chunks so search sees either the old document or the new one, never a mix."""
    source = merged_source(document.metadata, request)
    title = request.title if (request.title_from_partner or not document.title) else document.title
    provenance = request.provenance
    return {
        "metadata": {
            **document.metadata,
            "source_key": request.source_key,
            "source_version": request.source_version,
            "source": source,
        },
        "title": title[:500],
        "title_labels": title_labels(title, source),
        "citation": document_citation(title, source),
        "file_name": request.parser_file_name[:300],
        "mime_type": request.mime_type[:150],
        "format": request.format,
        "storage_key": request.storage_key,
        "checksum": fetched.sha256,
        "size_bytes": fetched.size,
        "registry_id": provenance.registry_id or document.registry_id,
        "collection_id": provenance.collection_id or document.collection_id,
        "collection_name": provenance.collection_name or document.collection_name,
        "uploaded_by": provenance.uploaded_by or document.uploaded_by,
    }


def prepare(decision: Decision, request: IngestRequest, fetched: FetchedFile) -> Document:
    """The row the pipeline will write into (rules 2–4).

    A completed row being corrected keeps its status and chunks (still searchable) until
    the indexer swaps them; an unfinished one is marked processing.
    """
    if decision.action is Action.NEW:
        return new_document(request, fetched)
    assert decision.document is not None
    doc = decision.document
    if doc.status not in COMPLETED_STATUSES:
        doc.status = DocumentStatus.PROCESSING
        doc.failure_reason = ""
        doc.save(update_fields=["status", "failure_reason", "updated_at"])
    return doc


def mark_failed(document: Document, reason: str) -> None:
    """A failed correction leaves a completed document as it was; a new one records why."""
    if document.status in COMPLETED_STATUSES:
        log.warning("identity: correction of %s failed; previous content kept", document.pk)
        return
    Document.objects.filter(pk=document.pk).update(
        status=DocumentStatus.FAILED, failure_reason=reason
    )
