"""Arbitrary bytes and JSON never make the validator raise, and verdicts follow the rules."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from partner_events.contract.validate import ContractConfig, validate_doc_uploaded
from partner_events.schemas import STAGE_STATUS_SCHEMA
from tests.partner_events.helpers import FULL_EXAMPLE

CONFIG = ContractConfig()
VALIDATOR = Draft202012Validator(
    STAGE_STATUS_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER
)
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
NORMALIZED_KEYS = {
    "jobId", "documentId", "registryId", "storageKey", "title", "mimeType", "format",
    "parserFileName", "collectionId", "collectionName", "sourceType", "uploadedBy",
    "uploadedAt", "sourceKey", "sourceVersion", "sourceSystem", "skpaUnit", "classification",
    "category", "sourceMetadata", "lockKey",
}  # fmt: skip

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
uuids = st.uuids().map(str)
tricky_values = (
    json_values
    | uuids
    | uuids.map(str.upper)
    | st.tuples(uuids, st.sampled_from(["\n", " ", "x", "}"])).map("".join)
    | st.sampled_from(["", " ", "-", "JDIH", "Provinsi Aceh", "application/pdf", "text/csv"])
    | st.sampled_from(["2026-07-23T10:15:30Z", "2026-07-23", "a/b.pdf", "a/b", "a/", "pdf"])
)


@st.composite
def mutated_events(draw: st.DrawFn) -> dict[str, Any]:
    """The full example with some fields dropped or replaced by arbitrary values."""
    payload = dict(FULL_EXAMPLE)
    for name in draw(st.lists(st.sampled_from([*sorted(FULL_EXAMPLE), "fileName"]), max_size=5)):
        if draw(st.booleans()):
            payload.pop(name, None)
        else:
            payload[name] = draw(tricky_values)
    if draw(st.booleans()):
        payload["sourceMetadata"] = draw(json_values)
    return payload


def _expected_identity(payload: object) -> tuple[str, str] | None:
    """The contract's recovery rule, restated independently of the implementation."""
    if not isinstance(payload, dict):
        return None
    job = payload.get("jobId")
    if not (isinstance(job, str) and UUID.fullmatch(job)):
        return None
    registry = payload["registryId"] if "registryId" in payload else payload.get("documentId")
    if isinstance(registry, str) and UUID.fullmatch(registry):
        return job, registry
    return None


def _check_consistency(raw: bytes, payload: object) -> None:
    verdict = validate_doc_uploaded(raw, CONFIG)
    output = verdict.to_json(CONFIG)
    json.dumps(output, ensure_ascii=False).encode("utf-8")  # printable by the command
    event = output["statusEvent"]
    if event is not None:
        assert list(VALIDATOR.iter_errors(event)) == []
        assert output["topic"] == "doc.indexed"
    if verdict.outcome == "reject":
        assert verdict.error and verdict.normalized is None and output["normalized"] is None
        identity = _expected_identity(payload)
        assert (event is not None) == (identity is not None)
        if event is not None and identity is not None:
            assert (event["jobId"], event["registryId"]) == identity
            assert (event["stage"], event["status"], event["aiDocumentId"]) == (
                "failed",
                "failed",
                None,
            )
        return
    assert verdict.error is None and verdict.normalized is not None
    assert isinstance(payload, dict) and UUID.fullmatch(payload["jobId"])
    assert verdict.normalized.registry_id in (payload.get("registryId"), payload["documentId"])
    if verdict.outcome == "accept":
        assert event is None
        assert set(output["normalized"]) == NORMALIZED_KEYS
    else:
        assert event is not None and event["status"] == "skipped"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_raise_and_follow_the_recovery_rules(raw: bytes) -> None:
    try:
        payload: object = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        payload = None
    _check_consistency(raw, payload)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_arbitrary_json_never_raises_and_follows_the_recovery_rules(payload: Any) -> None:
    _check_consistency(json.dumps(payload).encode("utf-8"), payload)


@settings(max_examples=500, deadline=None)
@given(mutated_events())
def test_mutated_events_never_raise_and_follow_the_recovery_rules(payload: dict) -> None:
    _check_consistency(json.dumps(payload).encode("utf-8"), payload)


def test_deeply_nested_json_is_rejected_without_raising() -> None:
    raw = b"[" * 100_000 + b"]" * 100_000
    verdict = validate_doc_uploaded(raw, CONFIG)
    assert verdict.outcome == "reject"
    assert verdict.status_event() is None


def test_lone_surrogates_and_nul_bytes_never_reach_a_normalized_record() -> None:
    payload = dict(FULL_EXAMPLE, storageKey="a/\\ud800.pdf", fileName="x\\u0000y")
    raw = json.dumps(payload).replace("\\\\", "\\").encode("utf-8")
    verdict = validate_doc_uploaded(raw, CONFIG)
    assert verdict.outcome == "reject"
    assert "storageKey" in (verdict.error or "")
    json.dumps(verdict.to_json(CONFIG), ensure_ascii=False).encode("utf-8")
