"""API router: ``POST /api/partner-events/validate`` — dry-run one doc.uploaded record.

The body is the raw Kafka record value (any bytes). The answer is the same verdict object
``manage.py check_doc_uploaded`` prints, with no side effects. HTTP 200 for every verdict
(a reject is an answer, not an error); the verdict's ``outcome`` says accept/reject/skip.
Token auth only: this endpoint is for partner backends, not browsers.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema

from aceh_rag.api_support import api_token_auth
from partner_events.contract.validate import ContractConfig, validate_doc_uploaded

router = Router(tags=["partner-events"])


class VerdictOut(Schema):
    outcome: str
    error: str | None
    statusEvent: dict[str, Any] | None
    topic: str | None
    normalized: dict[str, Any] | None
    warnings: list[dict[str, Any]]


class ErrorOut(Schema):
    code: str
    detail: Any


_BODY_DOC = {
    "requestBody": {
        "required": True,
        "description": "Nilai record Kafka doc.uploaded apa adanya (JSON satu objek).",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


@router.post(
    "/validate",
    auth=api_token_auth,
    response={200: VerdictOut, 401: ErrorOut},
    openapi_extra=_BODY_DOC,
)
def validate_event(request: HttpRequest) -> dict[str, Any]:
    """Validate a doc.uploaded record exactly as the Kafka worker would, without acting."""
    config = ContractConfig.from_settings()
    return validate_doc_uploaded(request.body, config).to_json(config)
