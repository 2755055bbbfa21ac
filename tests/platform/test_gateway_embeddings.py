"""Embeddings through the gateway: OpenAI shape, the §2 header set, interactive timeouts."""

from __future__ import annotations

from aceh_rag.platform.context import call_context
from aceh_rag.platform.gateway.wire import idempotency_key
from tests.gateway_server import (
    FakeGateway,
    embedding_for,
)
from tests.platform.helpers import client_for


def test_embeddings_come_back_in_input_order_with_the_openai_request_shape(
    gateway_server: FakeGateway,
) -> None:
    texts = ["Qanun Aceh nomor 1", "tentang pengelolaan zakat", "dan infak"]

    with client_for(gateway_server) as client, call_context(surface="ingestion"):
        vectors = client.embed(texts)

    sent = gateway_server.requests_to("POST", "/v1/embeddings")
    assert len(sent) == 1
    assert sent[0].json() == {"model": "tei-embeddings", "input": texts}
    assert vectors == [embedding_for(t, gateway_server.embed_dim) for t in texts]


def test_every_request_carries_the_header_set_from_the_call_context(
    gateway_server: FakeGateway,
) -> None:
    with (
        client_for(gateway_server, config_version="7") as client,
        call_context(
            surface="admin",
            user_id="11",
            trace_id="trace-abc",
            doc_hash="ef" * 32,
            job_id="job-5",
            parent_job_id="job-4",
        ),
    ):
        client.embed(["a"])

    sent = gateway_server.requests[0]
    assert sent.header("X-Engine") == "aceh-rag"
    assert sent.header("X-Surface") == "admin"
    assert sent.header("X-User-Id") == "11"
    assert sent.header("X-Trace-Id") == "trace-abc"
    assert sent.header("X-Traffic-Class") == "batch"
    assert sent.header("X-Doc-Hash") == "ef" * 32
    assert sent.header("X-Job-Id") == "job-5"
    assert sent.header("X-Parent-Job-Id") == "job-4"
    assert sent.header("X-Config-Version") == "7"
    assert sent.header("Idempotency-Key") == idempotency_key(
        "embed", "tei-embeddings", "7", {"input": ["a"]}
    )
    assert sent.header("X-Client-Timeout-Ms") is None


def test_an_interactive_call_declares_its_timeout_and_hold_budget(
    gateway_server: FakeGateway,
) -> None:
    with (
        client_for(gateway_server, interactive_timeout_s=25.0) as client,
        call_context(surface="search", traffic_class="interactive"),
    ):
        client.embed(["zakat fitrah"])

    sent = gateway_server.requests[0]
    assert sent.header("X-Traffic-Class") == "interactive"
    assert sent.header("X-Client-Timeout-Ms") == "25000"
    assert sent.header("X-Hold-Budget-Ms") == "10000"


def test_the_hold_budget_never_drops_below_five_seconds(gateway_server: FakeGateway) -> None:
    with (
        client_for(gateway_server, interactive_timeout_s=8.0) as client,
        call_context(surface="search", traffic_class="interactive"),
    ):
        client.embed(["zakat"])

    assert gateway_server.requests[0].header("X-Hold-Budget-Ms") == "5000"


def test_large_inputs_are_split_into_batches_with_their_own_keys(
    gateway_server: FakeGateway,
) -> None:
    texts = [f"kalimat {i}" for i in range(5)]

    with client_for(gateway_server, embed_batch_size=2) as client:
        vectors = client.embed(texts)

    sent = gateway_server.requests_to("POST", "/v1/embeddings")
    assert [r.json()["input"] for r in sent] == [texts[0:2], texts[2:4], texts[4:5]]
    assert len({r.header("Idempotency-Key") for r in sent}) == 3
    assert vectors == [embedding_for(t, gateway_server.embed_dim) for t in texts]


def test_no_texts_means_no_request(gateway_server: FakeGateway) -> None:
    with client_for(gateway_server) as client:
        assert client.embed([]) == []

    assert gateway_server.requests == []
