"""What the runner is asked to do, what it answers, and who listens along the way.

Both entry points (the Kafka worker and the admin upload worker) build an
:class:`IngestRequest` and call :func:`ingestion.pipeline.runner.ingest`; only their
observers differ (stage-event outbox, job-row progress, nothing).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any
from uuid import UUID

if TYPE_CHECKING:
    from ingestion.models import IngestionJob

log = logging.getLogger(__name__)


class Outcome(StrEnum):
    INDEXED = "indexed"
    NEEDS_REVIEW = "needs_review"
    SKIPPED = "skipped"
    FAILED = "failed"
    DEFERRED = "deferred"


class Milestone(StrEnum):
    """Internal routing keys of the contract's stage-topic map."""

    FETCHED = "fetched"
    OCR_PENDING = "ocr_pending"
    PARSED = "parsed"
    OCR = "ocr"
    CHUNKED = "chunked"
    EMBEDDED = "embedded"
    INDEXED = "indexed"
    NEEDS_REVIEW = "needs_review"
    SKIPPED = "skipped"
    FAILED = "failed"


# How far along a job is when it reaches each milestone: the job row and the partner's
# StageStatusEvent ``progress`` both read this one table.
PROGRESS: dict[Milestone, int] = {
    Milestone.FETCHED: 10,
    Milestone.PARSED: 25,
    Milestone.OCR_PENDING: 25,
    Milestone.OCR: 45,
    Milestone.CHUNKED: 65,
    Milestone.EMBEDDED: 85,
    Milestone.INDEXED: 100,
    Milestone.NEEDS_REVIEW: 100,
    Milestone.SKIPPED: 100,
    Milestone.FAILED: 100,
}


@dataclass(frozen=True, slots=True)
class Provenance:
    """Partner transport fields stored as source metadata when not None."""

    registry_id: str | None = None
    collection_id: str | None = None
    collection_name: str | None = None
    uploaded_by: str | None = None
    source_system: str | None = None
    skpa_unit: str | None = None
    classification: str | None = None
    category: str | None = None

    def source_fields(self) -> dict[str, str]:
        """camelCase keys, as the partner sends them; absent values never erase stored ones."""
        fields = {
            "registryId": self.registry_id,
            "collectionId": self.collection_id,
            "collectionName": self.collection_name,
            "uploadedBy": self.uploaded_by,
            "sourceSystem": self.source_system,
            "skpaUnit": self.skpa_unit,
            "classification": self.classification,
            "category": self.category,
        }
        return {k: v for k, v in fields.items() if v is not None}


@dataclass(slots=True)
class IngestRequest:
    job: IngestionJob | None
    storage_key: str
    format: str
    parser_file_name: str
    mime_type: str
    title: str
    source_type: str
    source_key: str
    source_version: str
    title_from_partner: bool = False
    source_metadata: dict[str, str] = field(default_factory=dict)
    provenance: Provenance = field(default_factory=Provenance)
    lock_key: str = ""
    # An admin's "reprocess": re-run this document's stored file in place, even though its
    # bytes are unchanged (identity rule 1 would otherwise skip it).
    reprocess_document_id: UUID | None = None

    def __post_init__(self) -> None:
        if not self.lock_key:
            self.lock_key = f"doc-uploaded:{self.source_key}"


@dataclass(slots=True)
class IngestResult:
    outcome: Outcome
    document_id: UUID | None = None
    chunk_count: int = 0
    indexed_count: int = 0
    ocr_confidence: float | None = None
    error: str | None = None
    permanent: bool = False
    checksum: str | None = None

    @property
    def terminal(self) -> bool:
        return self.outcome is not Outcome.DEFERRED


class PipelineObserver:
    """Listens to the pipeline. Every hook is optional: the base does nothing.

    ``milestone`` carries the contract's milestones (see the runner for their order).
    ``progress`` is live, for people watching a job (stage name, percent, heartbeat).
    ``status`` is a human line for waits that are not a stage (the GPU queue).
    ``at`` is when a held milestone really happened (the runner reports some only once the
    document is written); ``gpu_wait`` is the OCR time spent in the gateway's GPU queue.
    """

    def milestone(
        self,
        key: str,
        *,
        document_id: UUID | None,
        meta: dict[str, Any] | None,
        error: str | None = None,
        at: datetime | None = None,
    ) -> None:
        return None

    def progress(self, stage: str, percent: int) -> None:
        return None

    def status(self, text: str) -> None:
        return None

    def gpu_wait(self, milliseconds: int) -> None:
        return None


class CompositeObserver(PipelineObserver):
    """Forwards to several observers; one failing observer never stops the pipeline."""

    def __init__(self, *observers: Any) -> None:
        self.observers = [o for o in observers if o is not None]

    def _each(self, hook: str, *args: Any, **kwargs: Any) -> None:
        for observer in self.observers:
            method = getattr(observer, hook, None)
            if method is None:
                continue
            try:
                method(*args, **kwargs)
            except Exception:
                log.exception("observer %s.%s failed", type(observer).__name__, hook)

    def milestone(
        self,
        key: str,
        *,
        document_id: UUID | None,
        meta: dict[str, Any] | None,
        error: str | None = None,
        at: datetime | None = None,
    ) -> None:
        # ``at`` only when known, so observers written before it existed keep working.
        extra = {"at": at} if at is not None else {}
        self._each("milestone", key, document_id=document_id, meta=meta, error=error, **extra)

    def progress(self, stage: str, percent: int) -> None:
        self._each("progress", stage, percent)

    def status(self, text: str) -> None:
        self._each("status", text)

    def gpu_wait(self, milliseconds: int) -> None:
        self._each("gpu_wait", milliseconds)


def as_composite(observer: Any) -> CompositeObserver:
    return observer if isinstance(observer, CompositeObserver) else CompositeObserver(observer)
