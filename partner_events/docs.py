"""The public partner contract page ``/docs/api/partner-events`` and its JSON Schemas.

Every fact the code owns is generated at request time from the code and the active
settings, so the page cannot drift from the worker: the settings table, the stage-topic map
(``status.ROUTES`` + ``KAFKA_STAGE_TOPICS``), the input field table (``FIELDS`` under the
active ``PARTNER_FILENAME_FIELD``), sourceMetadata keys, the format table, the
StageStatusEvent schema, the examples (built or validated by the same code) and the
lifecycle paths. Prose that is policy, not code, lives in the template.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from ingestion.formats import FORMATS
from partner_events.contract.fields import SOURCE_METADATA_KEYS, fields_for
from partner_events.schemas import STAGE_STATUS_SCHEMA, doc_uploaded_schema
from partner_events.status import ROUTES, RoutingKey, WireStatus, build_event, validate_stage_topics

REQUIRED_EXAMPLE: dict[str, Any] = {
    "jobId": "550e8400-e29b-41d4-a716-446655440000",
    "documentId": "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    "storageKey": "documents/a1b2c3d4e5f6/perda-no-12-2026.pdf",
    "mimeType": "application/pdf",
    "collectionId": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "collectionName": "JDIH",
    "uploadedBy": "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d",
    "uploadedAt": "2026-08-05T09:12:03.412Z",
}

FULL_EXAMPLE: dict[str, Any] = {
    "jobId": "550e8400-e29b-41d4-a716-446655440000",
    "documentId": "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    "storageKey": "jdih/2026/qanun-aceh-001",
    "mimeType": "application/pdf",
    "collectionId": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "collectionName": "JDIH",
    "uploadedBy": "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d",
    "uploadedAt": "2026-07-23T10:15:30Z",
    "sourceType": "JDIH",
    "format": "pdf",
    "registryId": "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    "sourceSystem": "jdih-portal",
    "skpaUnit": "dinas-keuangan",
    "classification": "public",
    "category": "qanun",
    "sourceVersion": "2026-07-23T10:15:30Z",
}

EXAMPLES: dict[str, dict[str, Any]] = {"required": REQUIRED_EXAMPLE, "full": FULL_EXAMPLE}

# The contract's lifecycle paths as routing keys (with a status override where it differs).
LIFECYCLE: tuple[tuple[str, tuple[tuple[RoutingKey, WireStatus | None], ...], str], ...] = (
    (
        "Born-digital berhasil",
        tuple(
            (k, None)
            for k in (
                RoutingKey.FETCHED,
                RoutingKey.PARSED,
                RoutingKey.CHUNKED,
                RoutingKey.EMBEDDED,
                RoutingKey.INDEXED,
            )
        ),
        "",
    ),
    (
        "OCR berhasil",
        tuple(
            (k, None)
            for k in (
                RoutingKey.FETCHED,
                RoutingKey.OCR_PENDING,
                RoutingKey.PARSED,
                RoutingKey.OCR,
                RoutingKey.CHUNKED,
                RoutingKey.EMBEDDED,
                RoutingKey.INDEXED,
            )
        ),
        "ocr_pending/started dapat mendahului extracting/done (25).",
    ),
    (
        "Review OCR",
        (
            (RoutingKey.FETCHED, None),
            (RoutingKey.OCR_PENDING, None),
            (RoutingKey.PARSED, None),
            (RoutingKey.OCR, None),
            (RoutingKey.CHUNKED, None),
            (RoutingKey.EMBEDDED, None),
            (RoutingKey.INDEXED, WireStatus.NEEDS_REVIEW),
        ),
        "Sebagian chunk dapat tetap terindeks; chunkCount tidak selalu nol.",
    ),
    ("Fetch gagal", ((RoutingKey.FAILED, None),), "Tanpa pembaruan penyelesaian fetch."),
    (
        "Pipeline gagal setelah fetch",
        ((RoutingKey.FETCHED, None), (RoutingKey.FAILED, None)),
        "Pembaruan awal OCR (ocr_pending/started) dapat muncul sebelum failed/failed.",
    ),
    ("Skip sumber terstruktur", ((RoutingKey.SKIPPED, None),), "aiDocumentId null."),
    (
        "Skip duplikat konten",
        ((RoutingKey.FETCHED, None), (RoutingKey.SKIPPED, None)),
        "aiDocumentId dokumen yang sudah ada, chunkCount 0.",
    ),
)


@dataclass(frozen=True, slots=True)
class SettingRow:
    name: str
    env: str
    value: str
    default: str
    note: str


def settings_rows() -> list[SettingRow]:
    """The contract's settings table with the values active in this process."""
    rows = [
        ("kafka.enabled", "KAFKA_ENABLED", "false", "Aktif di tempat integrasi mitra berjalan."),
        (
            "kafka.bootstrap_servers",
            "KAFKA_BOOTSTRAP_SERVERS",
            "localhost:9092",
            "Daftar broker sebenarnya.",
        ),
        ("kafka.doc_uploaded_topic", "KAFKA_DOC_UPLOADED_TOPIC", "doc.uploaded", "Input topic."),
        (
            "kafka.stage_topics",
            "KAFKA_STAGE_TOPICS",
            "map lengkap (lihat di bawah)",
            "Setiap rute wajib ada; lihat map stage-topic aktif.",
        ),
        (
            "kafka.consumer_group",
            "KAFKA_CONSUMER_GROUP",
            "aceh-rag-ingestion",
            "Consumer group Aceh RAG.",
        ),
        (
            "kafka.default_source_version",
            "KAFKA_DEFAULT_SOURCE_VERSION",
            "m2-kafka",
            "Legacy; ingress memakai sourceVersion, selain itu uploadedAt (tetap wajib).",
        ),
        (
            "kafka.max_retries",
            "KAFKA_MAX_RETRIES",
            "3",
            "Anggaran retry kegagalan sementara fetch dan pipeline.",
        ),
        (
            "kafka.retry_backoff_seconds",
            "KAFKA_RETRY_BACKOFF_SECONDS",
            "2.0",
            "Jeda retry dasar (exponential backoff).",
        ),
        (
            "kafka_ingestion.PARTNER_FILENAME_FIELD",
            "PARTNER_FILENAME_FIELD",
            "fileName",
            "Nama field judul yang masih sementara.",
        ),
    ]
    result = []
    for name, env, default, note in rows:
        value: Any = getattr(settings, env, None)
        if env == "KAFKA_STAGE_TOPICS":
            shown = "lihat tabel map stage-topic"
        elif isinstance(value, bool):
            shown = "true" if value else "false"
        else:
            shown = str(value)
        result.append(SettingRow(name, env, shown, default, note))
    return result


def stage_topic_rows() -> tuple[list[dict[str, Any]], str | None]:
    """The configured routes, or the default map and the configuration error."""
    error = None
    try:
        topics = validate_stage_topics(settings.KAFKA_STAGE_TOPICS)
    except ImproperlyConfigured as exc:
        error = str(exc)
        topics = dict(settings.DEFAULT_STAGE_TOPICS)
    rows = []
    for key, route in ROUTES.items():
        wire = f"{route.stage}/{route.status}"
        if key == RoutingKey.INDEXED:
            wire += f" atau {route.stage}/{WireStatus.NEEDS_REVIEW}"
        rows.append(
            {
                "key": key.value,
                "wire": wire,
                "progress": route.progress,
                "topic": topics.get(key.value, "—"),
            }
        )
    return rows, error


def lifecycle_rows() -> list[dict[str, str]]:
    rows = []
    for name, steps, note in LIFECYCLE:
        parts = []
        for key, status in steps:
            route = ROUTES[key]
            parts.append(f"{route.stage}/{status or route.status} ({route.progress})")
        rows.append({"path": name, "updates": ", ".join(parts), "note": note})
    return rows


def format_rows() -> list[dict[str, str]]:
    return [
        {
            "format": spec.format.value,
            "extensions": ", ".join(f".{ft.extension}" for ft in spec.file_types),
            "mime": ", ".join(dict.fromkeys(m for ft in spec.file_types for m in ft.mime_types)),
            "derived": spec.derived_extension,
            "description": spec.description,
        }
        for spec in FORMATS
    ]


def success_event_example() -> dict[str, Any]:
    return build_event(
        RoutingKey.INDEXED,
        job_id=REQUIRED_EXAMPLE["jobId"],
        registry_id=REQUIRED_EXAMPLE["documentId"],
        ai_document_id="f47ac10b-58cc-4372-a567-0e02b2c3d479",
        meta={"chunkCount": 12},
        ts=datetime(2026, 10, 7, 9, 12, 3, tzinfo=UTC),
    )


def _pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def partner_events_page(request: HttpRequest) -> HttpResponse:
    """The contract page, public and in Indonesian."""
    filename_field = str(settings.PARTNER_FILENAME_FIELD)
    topics, topics_error = stage_topic_rows()
    context = {
        "settings_rows": settings_rows(),
        "input_topic": settings.KAFKA_DOC_UPLOADED_TOPIC,
        "stage_topics": topics,
        "stage_topics_error": topics_error,
        "filename_field": filename_field,
        "fields": fields_for(filename_field),
        "source_metadata_keys": SOURCE_METADATA_KEYS,
        "formats": format_rows(),
        "required_example": _pretty(REQUIRED_EXAMPLE),
        "full_example": _pretty(FULL_EXAMPLE),
        "success_example": _pretty(success_event_example()),
        "stage_status_schema": _pretty(STAGE_STATUS_SCHEMA),
        "lifecycle": lifecycle_rows(),
        "max_retries": settings.KAFKA_MAX_RETRIES,
        "backoff": settings.KAFKA_RETRY_BACKOFF_SECONDS,
        "orphan_grace": f"{settings.JOB_STALE_SECONDS:g}",
        "drain_seconds": f"{settings.KAFKA_DRAIN_SECONDS:g}",
    }
    return render(request, "partner_events/docs.html", context)


def doc_uploaded_schema_view(request: HttpRequest) -> JsonResponse:
    schema = doc_uploaded_schema(str(settings.PARTNER_FILENAME_FIELD))
    return JsonResponse(schema, json_dumps_params={"ensure_ascii": False, "indent": 2})


def stage_status_schema_view(request: HttpRequest) -> JsonResponse:
    return JsonResponse(STAGE_STATUS_SCHEMA, json_dumps_params={"ensure_ascii": False, "indent": 2})
