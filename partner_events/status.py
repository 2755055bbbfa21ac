"""StageStatusEvent v1: routing keys, wire stage/status/progress, and the envelope builder.

Routing uses the internal key of the stage-topic map, not the wire stage: ``fetched`` and
``parsed`` are both ``extracting/done`` (progress 10 and 25). ``build_event`` always returns
all ten envelope keys; terminal events must carry a registry ID (the schema's ``allOf``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, NamedTuple

from django.core.exceptions import ImproperlyConfigured

from ingestion.pipeline.request import PROGRESS, Milestone

ENVELOPE_VERSION = 1


# The stage-topic map's routing keys are the pipeline's milestones (one vocabulary, defined
# in the core); ``needs_review`` is the one milestone without a route of its own: it travels
# on the ``indexed`` route with the status override below.
RoutingKey = Milestone


class WireStage(StrEnum):
    EXTRACTING = "extracting"
    OCR_PENDING = "ocr_pending"
    OCR_DONE = "ocr_done"
    CHUNKING = "chunking"
    EMBEDDING = "embedding"
    INDEXING = "indexing"  # accepted by the v1 envelope, not emitted by current milestones
    INDEXED = "indexed"
    FAILED = "failed"


class WireStatus(StrEnum):
    STARTED = "started"
    DONE = "done"
    FAILED = "failed"
    SKIPPED = "skipped"
    NEEDS_REVIEW = "needs_review"


class Route(NamedTuple):
    stage: WireStage
    status: WireStatus
    progress: int


# Wire stage and status of each route; the progress is the core's (pipeline.request.PROGRESS).
_WIRE: dict[Milestone, tuple[WireStage, WireStatus]] = {
    RoutingKey.FETCHED: (WireStage.EXTRACTING, WireStatus.DONE),
    RoutingKey.PARSED: (WireStage.EXTRACTING, WireStatus.DONE),
    RoutingKey.OCR_PENDING: (WireStage.OCR_PENDING, WireStatus.STARTED),
    RoutingKey.OCR: (WireStage.OCR_DONE, WireStatus.DONE),
    RoutingKey.CHUNKED: (WireStage.CHUNKING, WireStatus.DONE),
    RoutingKey.EMBEDDED: (WireStage.EMBEDDING, WireStatus.DONE),
    RoutingKey.INDEXED: (WireStage.INDEXED, WireStatus.DONE),
    RoutingKey.FAILED: (WireStage.FAILED, WireStatus.FAILED),
    RoutingKey.SKIPPED: (WireStage.INDEXED, WireStatus.SKIPPED),
}
ROUTES: dict[Milestone, Route] = {
    key: Route(stage, status, PROGRESS[key]) for key, (stage, status) in _WIRE.items()
}

# The only status a caller may substitute: a review outcome travels on the indexed route.
STATUS_OVERRIDES: dict[RoutingKey, frozenset[WireStatus]] = {
    RoutingKey.INDEXED: frozenset({WireStatus.DONE, WireStatus.NEEDS_REVIEW}),
}

# Kafka's legal topic names.
_TOPIC_RE = re.compile(r"^[A-Za-z0-9._-]{1,249}$")


def is_terminal(stage: str, status: str) -> bool:
    """The contract's terminal pairs: failed/failed and indexed/{done,skipped,needs_review}."""
    if stage == WireStage.FAILED:
        return status == WireStatus.FAILED
    return stage == WireStage.INDEXED and status in (
        WireStatus.DONE,
        WireStatus.SKIPPED,
        WireStatus.NEEDS_REVIEW,
    )


def format_ts(ts: datetime) -> str:
    """ISO-8601 in UTC with a ``Z`` zone and milliseconds."""
    if ts.tzinfo is None:
        raise ValueError("ts must be timezone-aware")
    return ts.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _route_for(routing_key: str) -> tuple[RoutingKey, Route]:
    try:
        key = RoutingKey(routing_key)
    except ValueError:
        raise ValueError(f"unknown routing key {routing_key!r}") from None
    return key, ROUTES[key]


def _status_for(key: RoutingKey, route: Route, status_override: str | None) -> WireStatus:
    if status_override is None:
        return route.status
    status = WireStatus(status_override)
    if status not in STATUS_OVERRIDES.get(key, frozenset({route.status})):
        raise ValueError(f"status {status.value!r} is not allowed on routing key {key.value!r}")
    return status


def build_event(
    routing_key: str,
    *,
    job_id: str,
    registry_id: str | None,
    ai_document_id: str | None = None,
    error: str | None = None,
    meta: Mapping[str, Any] | None = None,
    status_override: str | None = None,
    ts: datetime | None = None,
) -> dict[str, Any]:
    """Build one StageStatusEvent v1 envelope with all ten keys.

    Raises ``ValueError`` for an unknown routing key, a disallowed status override, an empty
    ``job_id``, or a terminal event without a registry ID — each a bug in the caller, since
    the contract's schema would reject the result.
    """
    key, route = _route_for(routing_key)
    status = _status_for(key, route, status_override)
    if not job_id:
        raise ValueError("job_id must be a non-empty string")
    if is_terminal(route.stage, status) and not registry_id:
        raise ValueError(f"terminal event {route.stage}/{status} needs a registry_id")
    return {
        "v": ENVELOPE_VERSION,
        "jobId": job_id,
        "registryId": registry_id,
        "aiDocumentId": ai_document_id,
        "stage": route.stage.value,
        "status": status.value,
        "progress": route.progress,
        "error": error,
        "meta": dict(meta) if meta is not None else None,
        "ts": format_ts(ts if ts is not None else datetime.now(UTC)),
    }


def validate_stage_topics(mapping: object) -> dict[str, str]:
    """Check the complete routing-key → topic map, or raise ``ImproperlyConfigured``.

    Every routing key must be present with a non-empty, legal Kafka topic name; unknown keys
    are refused so a typo ("ocr_done" for "ocr") cannot silently drop a route.
    """
    if not isinstance(mapping, Mapping):
        raise ImproperlyConfigured(
            "KAFKA_STAGE_TOPICS harus berupa objek routing key → topic, "
            f"bukan {type(mapping).__name__}"
        )
    unknown = sorted(str(k) for k in mapping if k not in ROUTES)
    if unknown:
        raise ImproperlyConfigured(
            f"KAFKA_STAGE_TOPICS memuat key yang tidak didukung: {', '.join(unknown)} "
            f"(yang didukung: {', '.join(ROUTES)})"
        )
    topics: dict[str, str] = {}
    for key in ROUTES:
        if key.value not in mapping:
            raise ImproperlyConfigured(f"KAFKA_STAGE_TOPICS tidak memuat rute '{key.value}'")
        topic = mapping[key.value]
        if not isinstance(topic, str) or not topic.strip():
            raise ImproperlyConfigured(f"KAFKA_STAGE_TOPICS: topic untuk '{key.value}' kosong")
        if not _TOPIC_RE.fullmatch(topic):
            raise ImproperlyConfigured(
                f"KAFKA_STAGE_TOPICS: topic '{topic}' untuk '{key.value}' bukan nama topic "
                "Kafka yang sah (huruf, angka, '.', '_', '-'; maksimal 249)"
            )
        topics[key.value] = topic
    return topics


def topic_for(routing_key: str, topics: Mapping[str, str]) -> str:
    """The destination topic of a routing key in a validated stage-topic map."""
    key, _route = _route_for(routing_key)
    return topics[key.value]


def record_key(job_id: str) -> bytes:
    """The Kafka record key: the partner's jobId in UTF-8."""
    return job_id.encode("utf-8")


def record_value(event: Mapping[str, Any]) -> bytes:
    """The Kafka record value: compact UTF-8 JSON of the envelope."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
