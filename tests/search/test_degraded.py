"""When the query cannot be embedded now, search answers lexical-only and says so."""

from __future__ import annotations

import pytest
from django.test import override_settings

from ingestion.search.service import SearchQuery, search
from tests.gateway_server import FakeGateway, Reply
from tests.search.helpers import UnavailableEmbedder, add_chunk, make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def a_document() -> str:
    document = make_document("Qanun Kebersihan")
    add_chunk(document, "Sampah rumah tangga wajib dipilah sebelum diangkut")
    return str(document.id)


def test_an_unavailable_embedder_gives_lexical_results_marked_degraded(a_document: str) -> None:
    embedder = UnavailableEmbedder()
    response = search(SearchQuery(text="sampah dipilah"), embedder=embedder)
    assert response.degraded == "lexical_only"
    assert [hit.document_id for hit in response.results] == [a_document]
    assert embedder.calls == 1
    assert response.to_json()["degraded"] == "lexical_only"


def test_a_gateway_answering_429_degrades_without_retrying(
    a_document: str, gateway_server: FakeGateway
) -> None:
    busy = Reply(429, json={"error": "pool saturated"}, headers={"Retry-After": "30"})
    gateway_server.script("POST", "/v1/embeddings", busy, busy, busy)
    with override_settings(MODEL_GATEWAY_URL=gateway_server.url):
        response = search(SearchQuery(text="sampah dipilah"))
    assert response.degraded == "lexical_only"
    assert [hit.document_id for hit in response.results] == [a_document]
    assert len(gateway_server.requests_to("POST", "/v1/embeddings")) == 1
