"""A 4xx is a permanent verdict: one request, never retried, the upstream's reason kept."""

from __future__ import annotations

import pytest

from aceh_rag.platform.context import CallContext, Surface
from aceh_rag.platform.gateway.errors import GatewayVerdict
from ingestion.errors import PermanentError, stage_error
from tests.gateway_server import (
    FakeGateway,
    Reply,
)
from tests.platform.helpers import client_for

CTX = CallContext(surface=Surface.INGESTION, job_id="job-3", doc_hash="cd" * 32)
CORRUPT = {"error": {"code": "BAD_INPUT", "message": "PDF rusak / tidak dapat dibaca"}}


def test_a_400_is_sent_exactly_once_and_keeps_the_upstream_reason(
    gateway_server: FakeGateway,
) -> None:
    gateway_server.script("POST", "/v1/jobs", Reply(400, json=CORRUPT))

    with client_for(gateway_server) as client, pytest.raises(GatewayVerdict) as caught:
        client.ocr([(1, b"\x89PNG not really")], ctx=CTX)

    assert len(gateway_server.requests) == 1
    error = caught.value
    assert error.permanent is True
    assert isinstance(stage_error(error), PermanentError)
    assert error.reason == "PDF rusak / tidak dapat dibaca"
    assert error.status == 400
    assert error.code == "HTTP_400"
    assert error.negative_cache_hit is False


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(422, json={"detail": "halaman kosong"}), "halaman kosong"),
        (Reply(413, json={"message": "too large"}), "too large"),
        (Reply(415, body=b"unsupported media type"), "unsupported media type"),
        (Reply(422, json={"detail": [{"msg": "field required"}]}), "field required"),
        (Reply(400, body=b""), "Gateway model menolak permintaan (HTTP 400)"),
    ],
)
def test_the_reason_is_found_in_each_common_error_shape(
    gateway_server: FakeGateway, reply: Reply, reason: str
) -> None:
    gateway_server.script("POST", "/v1/embeddings", reply)

    with client_for(gateway_server) as client, pytest.raises(GatewayVerdict) as caught:
        client.embed(["x"], ctx=CTX)

    assert caught.value.reason == reason
    assert len(gateway_server.requests) == 1


def test_a_replayed_refusal_is_recognised_as_remembered(gateway_server: FakeGateway) -> None:
    replay = Reply(
        400,
        json=CORRUPT,
        headers={
            "X-Negative-Cache": "HIT",
            "X-Negative-Cache-Hits": "5",
            "X-Negative-Cache-First-At": "2025-01-02T03:04:05Z",
        },
    )
    gateway_server.script("POST", "/v1/jobs", replay)

    with client_for(gateway_server) as client, pytest.raises(GatewayVerdict) as caught:
        client.ocr([(1, b"png")], ctx=CTX)

    error = caught.value
    assert error.negative_cache_hit is True
    assert error.negative_cache_hits == 5
    assert error.code == "REFUSED_HTTP_400"
    assert error.reason == "PDF rusak / tidak dapat dibaca"
    assert len(gateway_server.requests) == 1


@pytest.mark.parametrize("status", [401, 403, 404, 409])
def test_other_client_errors_are_verdicts_too(gateway_server: FakeGateway, status: int) -> None:
    gateway_server.script("POST", "/v1/embeddings", Reply(status, json={"message": "nope"}))

    with client_for(gateway_server) as client, pytest.raises(GatewayVerdict):
        client.embed(["x"], ctx=CTX)

    assert len(gateway_server.requests) == 1


def test_a_failed_ocr_job_is_a_verdict_with_the_job_message(gateway_server: FakeGateway) -> None:
    gateway_server.job_plan = [
        {"status": "processing", "stage": "decode", "progress": 0.1},
        {"status": "failed", "error": {"code": "CORRUPT_IMAGE", "message": "Gambar rusak"}},
    ]

    with client_for(gateway_server) as client, pytest.raises(GatewayVerdict) as caught:
        client.ocr([(1, b"png")], ctx=CTX)

    assert caught.value.reason == "Gambar rusak"
    assert caught.value.code == "CORRUPT_IMAGE"
    assert len(gateway_server.requests_to("POST", "/v1/jobs")) == 1
