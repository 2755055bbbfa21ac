"""Event builders shared by the contract tests (plain functions, not fixtures)."""

from __future__ import annotations

import json
from typing import Any

from partner_events.contract.validate import ContractConfig, Verdict, validate_doc_uploaded

JOB_ID = "550e8400-e29b-41d4-a716-446655440000"
DOCUMENT_ID = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
REGISTRY_ID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
COLLECTION_ID = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
UPLOADED_BY = "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"

# The contract's "Event wajib" example, verbatim.
REQUIRED_EXAMPLE: dict[str, Any] = {
    "jobId": JOB_ID,
    "documentId": DOCUMENT_ID,
    "storageKey": "documents/a1b2c3d4e5f6/perda-no-12-2026.pdf",
    "mimeType": "application/pdf",
    "collectionId": COLLECTION_ID,
    "collectionName": "JDIH",
    "uploadedBy": UPLOADED_BY,
    "uploadedAt": "2026-08-05T09:12:03.412Z",
}

# The contract's "Contoh event lengkap", verbatim.
FULL_EXAMPLE: dict[str, Any] = {
    "jobId": JOB_ID,
    "documentId": DOCUMENT_ID,
    "storageKey": "jdih/2026/qanun-aceh-001",
    "mimeType": "application/pdf",
    "collectionId": COLLECTION_ID,
    "collectionName": "JDIH",
    "uploadedBy": UPLOADED_BY,
    "uploadedAt": "2026-07-23T10:15:30Z",
    "sourceType": "JDIH",
    "format": "pdf",
    "registryId": DOCUMENT_ID,
    "sourceSystem": "jdih-portal",
    "skpaUnit": "dinas-keuangan",
    "classification": "public",
    "category": "qanun",
    "sourceVersion": "2026-07-23T10:15:30Z",
}

_MISSING = object()


def event(**overrides: Any) -> dict[str, Any]:
    """The required example with overrides; pass ``field=MISSING`` to drop a field."""
    result = dict(REQUIRED_EXAMPLE)
    for name, value in overrides.items():
        if value is _MISSING:
            result.pop(name, None)
        else:
            result[name] = value
    return result


MISSING: Any = _MISSING


def check(payload: Any, config: ContractConfig | None = None) -> Verdict:
    raw = payload if isinstance(payload, bytes | str) else json.dumps(payload)
    return validate_doc_uploaded(raw, config or ContractConfig())


def accepted(payload: Any, config: ContractConfig | None = None) -> Verdict:
    verdict = check(payload, config)
    assert verdict.outcome == "accept", verdict.error
    assert verdict.normalized is not None
    return verdict


def rejected(payload: Any, config: ContractConfig | None = None) -> Verdict:
    verdict = check(payload, config)
    assert verdict.outcome == "reject", verdict
    assert verdict.error
    assert verdict.normalized is None
    return verdict
