"""The optional gateway reranker: its order wins; when it cannot answer, search keeps the
fused order and says ``degraded: "no_rerank"``."""

from __future__ import annotations

import pytest
from django.test import override_settings

from ingestion.search.service import SearchQuery, search
from tests.gateway_server import FakeGateway, Reply
from tests.search.helpers import HashEmbedder, add_chunk, make_document

pytestmark = pytest.mark.django_db

TEXTS = [
    "Pajak air permukaan dipungut oleh pemerintah Aceh",
    "Pajak air tanah dipungut oleh kabupaten",
    "Retribusi air bersih dipungut oleh perusahaan daerah",
]


@pytest.fixture
def chunks() -> list[int]:
    document = make_document("Qanun Aceh Nomor 5 Tahun 2026 tentang Pajak Air")
    return [
        add_chunk(document, text, heading_path=f"Pasal {i + 1}").pk for i, text in enumerate(TEXTS)
    ]


def _search(gateway: FakeGateway, **extra: object) -> tuple[list[int], str | None]:
    with override_settings(
        MODEL_GATEWAY_URL=gateway.url, GATEWAY_RERANK_MODEL="bge-reranker", **extra
    ):
        response = search(SearchQuery(text="pajak air dipungut"), embedder=HashEmbedder())
    return [hit.chunk_id for hit in response.results], response.degraded


def _unreranked() -> list[int]:
    response = search(SearchQuery(text="pajak air dipungut"), embedder=HashEmbedder())
    return [hit.chunk_id for hit in response.results]


def test_the_reranker_order_replaces_the_fused_order(
    chunks: list[int], gateway_server: FakeGateway
) -> None:
    fused = _unreranked()
    scores = [{"index": i, "relevance_score": 0.1 * i} for i in range(len(fused))]
    gateway_server.script("POST", "/v1/rerank", Reply(200, json={"results": scores}))
    order, degraded = _search(gateway_server)
    assert degraded is None
    assert order == list(reversed(fused))
    (request,) = gateway_server.requests_to("POST", "/v1/rerank")
    body = request.json()
    assert body["model"] == "bge-reranker" and body["query"] == "pajak air dipungut"
    assert body["top_n"] == len(fused) and len(body["documents"]) == len(fused)
    assert body["documents"][0].startswith("Pasal")
    assert request.header("X-Traffic-Class") == "interactive"
    assert request.header("X-Surface") == "search"
    assert request.header("X-Engine") == "aceh-rag" and request.header("X-Trace-Id")
    assert request.header("X-Config-Version") == "1"
    assert request.header("X-Client-Timeout-Ms") == "20000"
    assert request.header("X-Hold-Budget-Ms") == "5000"
    assert (request.header("Idempotency-Key") or "").startswith("aceh-rag-rerank-")


@pytest.mark.parametrize(
    "reply",
    [
        Reply(429, json={"error": "busy"}, headers={"Retry-After": "30"}),
        Reply(503, json={"error": "busy"}, headers={"Retry-After": "5"}),
        Reply(500, json={"error": "boom"}),
        Reply(502, body=b"bad gateway"),
        Reply(200, json={"results": [{"index": 99, "relevance_score": 1.0}]}),
    ],
    ids=["429", "503", "500", "502", "bad-index"],
)
def test_a_reranker_that_cannot_answer_leaves_the_fused_order(
    chunks: list[int], gateway_server: FakeGateway, reply: Reply
) -> None:
    fused = _unreranked()
    gateway_server.script("POST", "/v1/rerank", reply, reply, reply)
    order, degraded = _search(gateway_server)
    assert (order, degraded) == (fused, "no_rerank")
    assert len(gateway_server.requests_to("POST", "/v1/rerank")) == 1  # never retried


def test_a_reranker_slower_than_the_interactive_timeout_is_not_waited_for(
    chunks: list[int], gateway_server: FakeGateway
) -> None:
    fused = _unreranked()
    slow = Reply(200, json={"results": []}, delay_s=3.0)
    gateway_server.script("POST", "/v1/rerank", slow)
    order, degraded = _search(gateway_server, GATEWAY_INTERACTIVE_TIMEOUT_SECONDS=1.0)
    assert (order, degraded) == (fused, "no_rerank")


def test_without_a_rerank_model_the_gateway_is_not_asked(
    chunks: list[int], gateway_server: FakeGateway
) -> None:
    with override_settings(MODEL_GATEWAY_URL=gateway_server.url, GATEWAY_RERANK_MODEL=None):
        response = search(SearchQuery(text="pajak air dipungut"), embedder=HashEmbedder())
    assert response.degraded is None and response.results
    assert gateway_server.requests_to("POST", "/v1/rerank") == []
