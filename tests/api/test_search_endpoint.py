"""GET /api/search returns DESIGN.md's exact shape, filtered, with validation errors as JSON."""

from __future__ import annotations

import pytest
from django.test import Client

from ingestion.pipeline.embed import get_embedder
from tests.api.helpers import bearer, issue_token
from tests.search.helpers import add_chunk, make_document

pytestmark = pytest.mark.django_db

HIT_KEYS = {
    "documentId", "title", "headingPath", "pageFrom", "pageTo", "text", "score",
    "sourceUrl", "sourceType", "sourceKey", "sourceVersion",
}  # fmt: skip


@pytest.fixture
def token() -> str:
    document = make_document(
        "Qanun Aceh Nomor 3 Tahun 2026",
        source={"jenis": "Qanun Aceh", "nomor": "3", "tahun": "2026"},
    )
    add_chunk(
        document,
        "Setiap orang dilarang membuang sampah ke sungai",
        heading_path="BAB II › Pasal 4",
        embedder=get_embedder(),
    )
    return issue_token()


def test_search_returns_results_in_the_stable_shape(client: Client, token: str) -> None:
    body = client.get(
        "/api/search?q=membuang sampah ke sungai&limit=5", headers=bearer(token)
    ).json()
    assert set(body) == {"results", "degraded", "tookMs", "namedRegulationMissing"}
    assert body["degraded"] is None
    hit = body["results"][0]
    assert HIT_KEYS <= set(hit)
    assert hit["headingPath"] == "BAB II › Pasal 4"
    assert hit["title"] == "Qanun Aceh Nomor 3 Tahun 2026"


def test_filters_travel_through_the_query_string(client: Client, token: str) -> None:
    body = client.get("/api/search?q=sampah sungai&tahun=2019", headers=bearer(token)).json()
    assert body["results"] == []


def test_a_missing_query_is_a_422_with_a_code(client: Client, token: str) -> None:
    response = client.get("/api/search", headers=bearer(token))
    assert response.status_code == 422
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_a_limit_above_100_is_refused(client: Client, token: str) -> None:
    response = client.get("/api/search?q=sampah&limit=500", headers=bearer(token))
    assert response.status_code == 422
