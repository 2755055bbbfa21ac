"""429/503 + Retry-After is graceful degradation: batch waits as told, interactive gives up."""

from __future__ import annotations

import itertools
import time

import pytest

from aceh_rag.platform.context import CallContext, Surface, TrafficClass
from aceh_rag.platform.gateway.errors import GatewayBackpressure
from tests.gateway_server import (
    FakeGateway,
    Reply,
)
from tests.platform.helpers import client_for

BATCH = CallContext(surface=Surface.INGESTION, traffic_class=TrafficClass.BATCH, job_id="job-1")
SEARCH = CallContext(surface=Surface.SEARCH, traffic_class=TrafficClass.INTERACTIVE, user_id="7")
SATURATED = Reply(429, json={"error": {"message": "pool saturated"}}, headers={
    "Retry-After": "1", "X-Queue-Depth": "12"})  # fmt: skip


def test_a_batch_call_waits_the_told_second_and_then_succeeds_with_two_requests(
    gateway_server: FakeGateway,
) -> None:
    gateway_server.script("POST", "/v1/embeddings", SATURATED)

    with client_for(gateway_server) as client:
        vectors = client.embed(["qanun tentang zakat"], ctx=BATCH)

    sent = gateway_server.requests_to("POST", "/v1/embeddings")
    assert len(vectors) == 1
    assert len(sent) == 2
    assert sent[1].at - sent[0].at >= 1.0
    assert sent[0].header("Idempotency-Key") == sent[1].header("Idempotency-Key")


def test_backpressure_waits_do_not_use_up_the_failure_retries(
    gateway_server: FakeGateway,
) -> None:
    told = Reply(503, headers={"Retry-After": "0.2", "X-Queue-Depth": "3"})
    gateway_server.script("POST", "/v1/embeddings", told, told, told, told)

    with client_for(gateway_server, max_retries=1) as client:
        vectors = client.embed(["a"], ctx=BATCH)

    assert len(vectors) == 1
    assert len(gateway_server.requests_to("POST", "/v1/embeddings")) == 5


def test_an_interactive_call_does_not_wait_and_reports_the_queue_depth(
    gateway_server: FakeGateway,
) -> None:
    gateway_server.script("POST", "/v1/embeddings", SATURATED)

    started = time.monotonic()
    with client_for(gateway_server) as client, pytest.raises(GatewayBackpressure) as caught:
        client.embed(["zakat"], ctx=SEARCH)

    assert time.monotonic() - started < 0.9
    assert len(gateway_server.requests_to("POST", "/v1/embeddings")) == 1
    assert caught.value.permanent is False
    assert caught.value.queue_depth == 12
    assert caught.value.retry_after_s == 1.0


def test_a_503_with_retry_after_also_degrades_an_interactive_call(
    gateway_server: FakeGateway,
) -> None:
    gateway_server.script("POST", "/v1/embeddings", Reply(503, headers={"Retry-After": "5"}))

    with client_for(gateway_server) as client, pytest.raises(GatewayBackpressure):
        client.embed(["zakat"], ctx=SEARCH)

    assert len(gateway_server.requests_to("POST", "/v1/embeddings")) == 1


def test_a_batch_call_gives_up_when_told_to_wait_past_the_gpu_queue_budget(
    gateway_server: FakeGateway,
) -> None:
    long_wait = Reply(429, headers={"Retry-After": "1", "X-Queue-Depth": "40"})
    gateway_server.script("POST", "/v1/embeddings", *[long_wait] * 10)

    started = time.monotonic()
    with client_for(gateway_server, queue_wait_ms=2500) as client:
        with pytest.raises(GatewayBackpressure) as caught:
            client.embed(["zakat"], ctx=BATCH)

    elapsed = time.monotonic() - started
    assert caught.value.code == "GPU_QUEUE_TIMEOUT"
    assert "Antrean GPU" in caught.value.reason
    assert 2 <= len(gateway_server.requests_to("POST", "/v1/embeddings")) <= 3
    assert elapsed < 5.0  # bounded by the 2.5 s budget (slack for a loaded CI machine)


def test_a_429_without_retry_after_backs_off_further_each_time(
    gateway_server: FakeGateway,
) -> None:
    gateway_server.script("POST", "/v1/embeddings", Reply(429), Reply(429), Reply(429))

    with client_for(gateway_server, backoff_base_s=0.1) as client:
        client.embed(["zakat"], ctx=BATCH)

    sent = gateway_server.requests_to("POST", "/v1/embeddings")
    gaps = [b.at - a.at for a, b in itertools.pairwise(sent)]
    assert len(sent) == 4
    assert gaps[0] >= 0.1 and gaps[1] >= 0.2 and gaps[2] >= 0.4
