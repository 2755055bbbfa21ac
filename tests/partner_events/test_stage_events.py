"""StageStatusEvent v1: the routing table, the ten-key envelope, and the schema."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from partner_events.schemas import STAGE_STATUS_SCHEMA
from partner_events.status import (
    ROUTES,
    RoutingKey,
    build_event,
    record_key,
    record_value,
)

VALIDATOR = Draft202012Validator(
    STAGE_STATUS_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER
)
JOB = "550e8400-e29b-41d4-a716-446655440000"
REG = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
TS = datetime(2026, 10, 7, 9, 12, 3, tzinfo=UTC)

CONTRACT_TABLE = {
    "fetched": ("extracting", "done", 10),
    "parsed": ("extracting", "done", 25),
    "ocr_pending": ("ocr_pending", "started", 25),
    "ocr": ("ocr_done", "done", 45),
    "chunked": ("chunking", "done", 65),
    "embedded": ("embedding", "done", 85),
    "indexed": ("indexed", "done", 100),
    "failed": ("failed", "failed", 100),
    "skipped": ("indexed", "skipped", 100),
}


def _errors(event: dict[str, Any]) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(event)]


def test_the_routes_are_exactly_the_contract_table() -> None:
    assert {key.value: tuple(route) for key, route in ROUTES.items()} == CONTRACT_TABLE


@pytest.mark.parametrize("key", list(ROUTES))
@pytest.mark.parametrize("ai_document_id", [None, "f47ac10b-58cc-4372-a567-0e02b2c3d479"])
@pytest.mark.parametrize("meta", [None, {"chunkCount": 3}, {"ocrConfidence": 0.4}])
def test_every_routable_event_has_ten_keys_and_validates(
    key: RoutingKey, ai_document_id: str | None, meta: dict[str, Any] | None
) -> None:
    error = "PDF rusak" if key is RoutingKey.FAILED else None
    event = build_event(
        key, job_id=JOB, registry_id=REG, ai_document_id=ai_document_id, error=error, meta=meta
    )
    assert list(event) == [
        "v", "jobId", "registryId", "aiDocumentId", "stage", "status", "progress", "error",
        "meta", "ts",
    ]  # fmt: skip
    assert event["v"] == 1
    assert (event["stage"], event["status"], event["progress"]) == CONTRACT_TABLE[key.value]
    assert _errors(event) == []


@pytest.mark.parametrize("key", ["fetched", "parsed", "ocr_pending", "ocr", "chunked", "embedded"])
def test_non_terminal_events_may_have_a_null_registry_id(key: str) -> None:
    event = build_event(key, job_id=JOB, registry_id=None)
    assert event["registryId"] is None
    assert _errors(event) == []


def test_needs_review_travels_on_the_indexed_route() -> None:
    event = build_event("indexed", job_id=JOB, registry_id=REG, status_override="needs_review")
    assert (event["stage"], event["status"], event["progress"]) == ("indexed", "needs_review", 100)
    assert _errors(event) == []


@pytest.mark.parametrize(("key", "status"), [("fetched", "needs_review"), ("failed", "done")])
def test_other_status_overrides_are_refused(key: str, status: str) -> None:
    with pytest.raises(ValueError, match="not allowed"):
        build_event(key, job_id=JOB, registry_id=REG, status_override=status)


@pytest.mark.parametrize("key", ["indexed", "failed", "skipped"])
def test_terminal_events_refuse_a_missing_registry_id(key: str) -> None:
    with pytest.raises(ValueError, match="registry_id"):
        build_event(key, job_id=JOB, registry_id=None)


def test_the_schema_itself_rejects_a_terminal_event_without_registry_id() -> None:
    event = build_event("chunked", job_id=JOB, registry_id=None)
    for stage, status in [("failed", "failed"), ("indexed", "done"), ("indexed", "skipped")]:
        assert _errors({**event, "stage": stage, "status": status, "progress": 100})
        assert _errors({**event, "stage": stage, "status": status, "registryId": ""})


def test_an_unknown_routing_key_is_refused() -> None:
    with pytest.raises(ValueError, match="routing key"):
        build_event("ocr_done", job_id=JOB, registry_id=REG)


@pytest.mark.parametrize(
    "ts",
    [
        datetime(2026, 10, 7, 16, 12, 3, tzinfo=timezone(timedelta(hours=7))),
        datetime(2026, 10, 7, 9, 12, 3, tzinfo=UTC),
    ],
)
def test_ts_is_iso_8601_in_utc_with_a_zone(ts: datetime) -> None:
    event = build_event("fetched", job_id=JOB, registry_id=REG, ts=ts)
    assert event["ts"] == "2026-10-07T09:12:03.000Z"
    assert datetime.fromisoformat(event["ts"].replace("Z", "+00:00")) == ts


def test_ts_defaults_to_now_and_a_naive_ts_is_refused() -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    event = build_event("fetched", job_id=JOB, registry_id=REG)
    assert datetime.fromisoformat(event["ts"].replace("Z", "+00:00")) >= before
    with pytest.raises(ValueError):
        build_event("fetched", job_id=JOB, registry_id=REG, ts=datetime(2026, 1, 1))


def test_the_contract_serialization_example_round_trips() -> None:
    example: dict[str, Any] = {
        "v": 1,
        "jobId": JOB,
        "registryId": REG,
        "aiDocumentId": "f47ac10b-58cc-4372-a567-0e02b2c3d479",
        "stage": "indexed",
        "status": "done",
        "progress": 100,
        "error": None,
        "meta": {"chunkCount": 12},
        "ts": "2026-10-07T09:12:03Z",
    }
    assert _errors(example) == []
    built = build_event(
        "indexed",
        job_id=JOB,
        registry_id=REG,
        ai_document_id=example["aiDocumentId"],
        meta={"chunkCount": 12},
        ts=TS,
    )
    assert {**built, "ts": example["ts"]} == example
    assert json.loads(record_value(built)) == built


def test_the_record_key_is_the_job_id_in_utf8() -> None:
    assert record_key(JOB) == JOB.encode("utf-8")
    assert record_key("jöb") == b"j\xc3\xb6b"


def test_meta_is_copied_not_shared() -> None:
    meta = {"chunkCount": 1}
    event = build_event("chunked", job_id=JOB, registry_id=REG, meta=meta)
    meta["chunkCount"] = 99
    assert event["meta"] == {"chunkCount": 1}
