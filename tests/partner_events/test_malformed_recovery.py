"""Malformed events publish failed/failed only when jobId and registryId can be recovered."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from partner_events.contract.validate import ContractConfig
from tests.partner_events.helpers import (
    DOCUMENT_ID,
    JOB_ID,
    MISSING,
    REGISTRY_ID,
    check,
    event,
    rejected,
)

TS = datetime(2026, 10, 7, 9, 12, 3, tzinfo=UTC)
CONFIG = ContractConfig()


def _no_status(payload: object) -> None:
    verdict = rejected(payload)
    assert verdict.status_event(TS) is None
    output = verdict.to_json(CONFIG, TS)
    assert output["statusEvent"] is None
    assert output["topic"] is None


@pytest.mark.parametrize(
    "raw", [b"", b"{", b"not json", b"\xff\xfe\x00", b"{'jobId': 1}", b"NaN", b"[1, 2"]
)
def test_invalid_json_has_no_correlatable_status(raw: bytes) -> None:
    _no_status(raw)


@pytest.mark.parametrize("raw", [b"[]", b"42", b'"jobId"', b"null", b"true", b"[{}]"])
def test_a_payload_that_is_not_an_object_has_no_correlatable_status(raw: bytes) -> None:
    _no_status(raw)
    assert rejected(raw).error == "payload harus berupa objek JSON"


@pytest.mark.parametrize("job_id", [MISSING, None, "", "job-1", 7])
def test_a_missing_or_invalid_job_id_has_no_correlatable_status(job_id: object) -> None:
    _no_status(event(jobId=job_id, collectionName="???"))
    _no_status(event(jobId=job_id))


def test_a_malformed_event_with_an_explicit_registry_id_fails_with_it() -> None:
    verdict = rejected(event(registryId=REGISTRY_ID, collectionName="Arsip"))
    status = verdict.status_event(TS)
    assert status is not None
    assert (status["stage"], status["status"], status["progress"]) == ("failed", "failed", 100)
    assert (status["jobId"], status["registryId"]) == (JOB_ID, REGISTRY_ID)
    assert status["aiDocumentId"] is None
    assert status["error"] == verdict.error
    assert "collectionName" in status["error"]


def test_a_malformed_event_without_registry_id_falls_back_to_a_valid_document_id() -> None:
    verdict = rejected(event(registryId=MISSING, mimeType="application/zip"))
    status = verdict.status_event(TS)
    assert status is not None
    assert status["registryId"] == DOCUMENT_ID
    assert verdict.to_json(CONFIG, TS)["topic"] == "doc.indexed"


@pytest.mark.parametrize("registry_id", [None, "", "registry-7", 12])
def test_an_explicit_null_or_invalid_registry_id_is_not_replaced(registry_id: object) -> None:
    verdict = rejected(event(registryId=registry_id, collectionName="Arsip"))
    assert verdict.job_id == JOB_ID
    assert verdict.registry_id is None
    assert verdict.status_event(TS) is None


@pytest.mark.parametrize("document_id", [MISSING, None, "doc-1"])
def test_no_registry_id_and_no_valid_document_id_means_no_status(document_id: object) -> None:
    _no_status(event(registryId=MISSING, documentId=document_id))


def test_the_failed_event_goes_to_the_configured_failed_topic() -> None:
    config = ContractConfig(stage_topics={**CONFIG.stage_topics, "failed": "dms.failed"})
    output = check(event(uploadedAt="2026-08-05")).to_json(config, TS)
    assert output["outcome"] == "reject"
    assert output["topic"] == "dms.failed"
    assert output["statusEvent"]["ts"] == "2026-10-07T09:12:03.000Z"
    assert output["normalized"] is None
