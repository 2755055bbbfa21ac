"""JSON Schemas (Draft 2020-12) of the partner contract, as Python data.

``STAGE_STATUS_SCHEMA`` is the contract's StageStatusEvent schema verbatim.
``DOC_UPLOADED_SCHEMA`` is generated from ``contract.fields.FIELDS``: it describes what a
producer should send. The validator is the authority; the schema cannot express the
cross-field rules (MIME/extension/format agreement, collectionName normalization, the
sourceType match, the registryId fallback), which its ``description`` names.
"""

from __future__ import annotations

from typing import Any

from partner_events.contract.fields import DEFAULT_FILENAME_FIELD, fields_for

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

_TERMINAL_REGISTRY_RULE: dict[str, Any] = {
    "if": {
        "anyOf": [
            {"properties": {"stage": {"const": "failed"}, "status": {"const": "failed"}}},
            {
                "properties": {
                    "stage": {"const": "indexed"},
                    "status": {"enum": ["done", "skipped", "needs_review"]},
                }
            },
        ]
    },
    "then": {"properties": {"registryId": {"type": "string", "minLength": 1}}},
}

STAGE_STATUS_SCHEMA: dict[str, Any] = {
    "$schema": DRAFT_2020_12,
    "title": "StageStatusEvent",
    "type": "object",
    "additionalProperties": False,
    "required": [
        "v",
        "jobId",
        "registryId",
        "aiDocumentId",
        "stage",
        "status",
        "progress",
        "error",
        "meta",
        "ts",
    ],
    "properties": {
        "v": {"const": 1},
        "jobId": {"type": "string", "minLength": 1},
        "registryId": {"type": ["string", "null"]},
        "aiDocumentId": {"type": ["string", "null"]},
        "stage": {
            "type": "string",
            "enum": [
                "extracting",
                "ocr_pending",
                "ocr_done",
                "chunking",
                "embedding",
                "indexing",
                "indexed",
                "failed",
            ],
        },
        "status": {
            "type": "string",
            "enum": ["started", "done", "failed", "skipped", "needs_review"],
        },
        "progress": {"type": "integer", "minimum": 0, "maximum": 100},
        "error": {"type": ["string", "null"]},
        "meta": {
            "type": ["object", "null"],
            "properties": {
                "ocrConfidence": {"type": "number"},
                "chunkCount": {"type": "integer", "minimum": 0},
            },
        },
        "ts": {"type": "string", "format": "date-time"},
    },
    "allOf": [_TERMINAL_REGISTRY_RULE],
}


def doc_uploaded_schema(filename_field: str = DEFAULT_FILENAME_FIELD) -> dict[str, Any]:
    """The doc.uploaded schema with the provisional file-name field under its active name."""
    fields = fields_for(filename_field)
    properties: dict[str, Any] = {}
    for spec in fields:
        properties[spec.name] = {**spec.schema, "description": spec.rule}
    return {
        "$schema": DRAFT_2020_12,
        "title": "doc.uploaded",
        "description": (
            "Satu objek JSON per dokumen. Field tingkat atas yang tidak dikenal diabaikan. "
            "Aturan lintas field (MIME/ekstensi/format, normalisasi collectionName, "
            "kecocokan sourceType, fallback registryId) diperiksa oleh consumer."
        ),
        "type": "object",
        "required": [spec.name for spec in fields if spec.required],
        "properties": properties,
        "additionalProperties": True,
    }


DOC_UPLOADED_SCHEMA: dict[str, Any] = doc_uploaded_schema()
