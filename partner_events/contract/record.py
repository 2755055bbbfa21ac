"""The result types of the doc.uploaded contract: ``NormalizedRecord`` and ``Verdict``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from ingestion.formats import DocumentFormat
from ingestion.sources import SourceType
from partner_events.contract.config import ContractConfig
from partner_events.status import RoutingKey, build_event, topic_for

LOCK_PREFIX = "doc-uploaded:"


class Outcome(StrEnum):
    ACCEPT = "accept"
    REJECT = "reject"
    SKIP = "skip"


class WarningCode(StrEnum):
    SOURCE_METADATA_KEYS_DROPPED = "source_metadata_keys_dropped"


@dataclass(frozen=True, slots=True)
class NormalizedRecord:
    """A valid doc.uploaded event after the contract's rules.

    ``source_key``/``source_version`` are resolved (sourceKey or documentId, sourceVersion or
    uploadedAt); the ``*_explicit`` flags say whether the partner sent them. ``title`` is
    the cleaned fileName when ``title_from_partner`` is true, else the storage key's
    basename: a refresh of identical bytes updates the stored title only in the first case.
    """

    job_id: str
    document_id: str
    registry_id: str
    storage_key: str
    title: str
    title_from_partner: bool
    mime_type: str  # as sent
    media_type: str  # lower-case essence without parameters
    format: DocumentFormat
    parser_file_name: str
    collection_id: str
    collection_name: str  # as sent
    source_type: SourceType
    uploaded_by: str
    uploaded_at: str  # as sent
    uploaded_at_dt: datetime
    source_key: str
    source_key_explicit: bool
    source_version: str
    source_version_explicit: bool
    source_system: str | None = None
    skpa_unit: str | None = None
    classification: str | None = None
    category: str | None = None
    source_metadata: dict[str, str] = field(default_factory=dict)

    @property
    def lock_key(self) -> str:
        return f"{LOCK_PREFIX}{self.source_key}"

    def source_fields(self) -> dict[str, str]:
        """What the contract stores as source metadata (``metadata.source``).

        The kept ``sourceMetadata`` keys first, then the transport fields, which win: the
        contract gives transport/access fields priority. Absent values are left out so they
        never erase stored ones.
        """
        fields: dict[str, str] = dict(self.source_metadata)
        transport = {
            "collectionId": self.collection_id,
            "collectionName": self.collection_name,
            "uploadedBy": self.uploaded_by,
            "sourceSystem": self.source_system,
            "skpaUnit": self.skpa_unit,
            "classification": self.classification,
            "category": self.category,
        }
        fields.update({k: v for k, v in transport.items() if v is not None})
        return fields

    def to_json(self) -> dict[str, Any]:
        """The ``normalized`` object of ``check_doc_uploaded`` (camelCase, nulls kept)."""
        return {
            "jobId": self.job_id,
            "documentId": self.document_id,
            "registryId": self.registry_id,
            "storageKey": self.storage_key,
            "title": self.title,
            "mimeType": self.mime_type,
            "format": self.format.value,
            "parserFileName": self.parser_file_name,
            "collectionId": self.collection_id,
            "collectionName": self.collection_name,
            "sourceType": self.source_type.value,
            "uploadedBy": self.uploaded_by,
            "uploadedAt": self.uploaded_at,
            "sourceKey": self.source_key,
            "sourceVersion": self.source_version,
            "sourceSystem": self.source_system,
            "skpaUnit": self.skpa_unit,
            "classification": self.classification,
            "category": self.category,
            "sourceMetadata": dict(self.source_metadata),
            "lockKey": self.lock_key,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The contract's decision on one record value.

    ``job_id``/``registry_id`` are the identities recovered for correlation: on a reject
    they follow the malformed-message rules (an explicit null or invalid registryId is not
    replaced by documentId); on accept/skip they are the normalized ones.
    """

    outcome: Outcome
    error: str | None = None
    normalized: NormalizedRecord | None = None
    warnings: list[dict[str, Any]] = field(default_factory=list)
    job_id: str | None = None
    registry_id: str | None = None

    @property
    def status_routing_key(self) -> RoutingKey | None:
        """The routing key of the status event the worker publishes at ingress, if any."""
        if self.outcome is Outcome.SKIP:
            return RoutingKey.SKIPPED
        if self.outcome is Outcome.REJECT and self.job_id and self.registry_id:
            return RoutingKey.FAILED
        return None

    def status_event(self, ts: datetime | None = None) -> dict[str, Any] | None:
        """The StageStatusEvent for a correlatable reject (failed/failed) or a skip."""
        key = self.status_routing_key
        if key is None or self.job_id is None:
            return None
        if key is RoutingKey.SKIPPED:
            # Structured-source no-op: nothing was persisted, so no aiDocumentId.
            return build_event(
                key, job_id=self.job_id, registry_id=self.registry_id, meta={"chunkCount": 0}, ts=ts
            )
        return build_event(
            key, job_id=self.job_id, registry_id=self.registry_id, error=self.error, ts=ts
        )

    def to_json(self, config: ContractConfig, ts: datetime | None = None) -> dict[str, Any]:
        """The ``check_doc_uploaded`` output object (DESIGN.md)."""
        event = self.status_event(ts)
        key = self.status_routing_key
        accepted = self.outcome is Outcome.ACCEPT and self.normalized is not None
        return {
            "outcome": self.outcome.value,
            "error": self.error,
            "statusEvent": event,
            "topic": topic_for(key, config.stage_topics) if event and key else None,
            "normalized": self.normalized.to_json() if accepted and self.normalized else None,
            "warnings": [dict(w) for w in self.warnings],
        }
