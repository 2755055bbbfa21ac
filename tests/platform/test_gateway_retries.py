"""408, 5xx and network errors: bounded retries with exponential backoff, then transient."""

from __future__ import annotations

import itertools
import socket

import pytest

from aceh_rag.platform.context import CallContext, Surface
from aceh_rag.platform.gateway.client import GatewayClient
from aceh_rag.platform.gateway.config import GatewayConfig
from aceh_rag.platform.gateway.errors import GatewayUnavailable
from tests.gateway_server import (
    FakeGateway,
    Reply,
)
from tests.platform.helpers import client_for

CTX = CallContext(surface=Surface.INGESTION)


def test_a_5xx_is_retried_with_the_same_key_then_succeeds(gateway_server: FakeGateway) -> None:
    gateway_server.script("POST", "/v1/embeddings", Reply(500), Reply(502))

    with client_for(gateway_server, max_retries=2) as client:
        vectors = client.embed(["a", "b"], ctx=CTX)

    sent = gateway_server.requests_to("POST", "/v1/embeddings")
    assert len(vectors) == 2
    assert len(sent) == 3
    assert len({r.header("Idempotency-Key") for r in sent}) == 1


def test_retries_are_bounded_and_back_off_exponentially(gateway_server: FakeGateway) -> None:
    gateway_server.script("POST", "/v1/embeddings", *[Reply(500)] * 10)

    with client_for(gateway_server, max_retries=3, backoff_base_s=0.1) as client:
        with pytest.raises(GatewayUnavailable) as caught:
            client.embed(["a"], ctx=CTX)

    sent = gateway_server.requests_to("POST", "/v1/embeddings")
    gaps = [b.at - a.at for a, b in itertools.pairwise(sent)]
    assert len(sent) == 4
    assert gaps[0] >= 0.1 and gaps[1] >= 0.2 and gaps[2] >= 0.4
    assert caught.value.permanent is False
    assert caught.value.code == "HTTP_500"


def test_a_408_is_retried(gateway_server: FakeGateway) -> None:
    gateway_server.script("POST", "/v1/embeddings", Reply(408))

    with client_for(gateway_server) as client:
        client.embed(["a"], ctx=CTX)

    assert len(gateway_server.requests_to("POST", "/v1/embeddings")) == 2


def test_a_503_without_retry_after_counts_as_a_failure(gateway_server: FakeGateway) -> None:
    gateway_server.script("POST", "/v1/embeddings", *[Reply(503)] * 5)

    with client_for(gateway_server, max_retries=1) as client:
        with pytest.raises(GatewayUnavailable):
            client.embed(["a"], ctx=CTX)

    assert len(gateway_server.requests_to("POST", "/v1/embeddings")) == 2


def test_an_unreachable_gateway_is_transient_after_bounded_retries() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = GatewayConfig(base_url=f"http://127.0.0.1:{port}", max_retries=1, backoff_base_s=0.01)
    client = GatewayClient(config)

    with pytest.raises(GatewayUnavailable) as caught:
        client.embed(["a"], ctx=CTX)
    client.close()

    assert caught.value.code == "NETWORK"
    assert caught.value.permanent is False
    assert "tidak dapat dihubungi" in caught.value.reason
