"""Through the gateway, passages and queries carry e5 prefixes and the gateway model id."""

from __future__ import annotations

from typing import Any

import pytest

from ingestion.pipeline.embed import EmbeddingUnavailable, GatewayEmbedder, get_embedder
from tests.gateway_server import Reply


@pytest.fixture
def gateway(gateway_server: Any, settings: Any) -> Any:
    settings.MODEL_GATEWAY_URL = gateway_server.url
    settings.GATEWAY_EMBED_MODEL = "tei-embeddings"
    settings.GATEWAY_BACKOFF_BASE_SECONDS = 0.01
    return gateway_server


def test_passages_are_sent_with_the_passage_prefix_to_the_gateway_model(gateway: Any) -> None:
    embedder = get_embedder()
    assert isinstance(embedder, GatewayEmbedder)
    assert embedder.model_id == "tei-embeddings"
    vectors = embedder.embed_passages(["Pasal 1", "Pasal 2"])
    assert len(vectors) == 2
    (request,) = gateway.requests_to("POST", "/v1/embeddings")
    assert request.json() == {
        "model": "tei-embeddings",
        "input": ["passage: Pasal 1", "passage: Pasal 2"],
    }


def test_an_interactive_query_under_backpressure_reports_embedding_unavailable(
    gateway: Any,
) -> None:
    gateway.script(
        "POST",
        "/v1/embeddings",
        Reply(status=429, json={"code": "BUSY"}, headers={"Retry-After": "3"}),
    )
    with pytest.raises(EmbeddingUnavailable):
        get_embedder().embed_query("retribusi kesehatan")
    (request,) = gateway.requests_to("POST", "/v1/embeddings")
    assert request.json()["input"] == ["query: retribusi kesehatan"]
    assert request.header("X-Traffic-Class") == "interactive"
