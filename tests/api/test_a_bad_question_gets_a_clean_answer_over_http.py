"""Whatever a person types, ``GET /api/search`` answers with a list (maybe empty), never an
error: one word, 2,000 characters, English, only stop words. A question naming a
regulation the corpus does not hold says so (``namedRegulationMissing``) and still answers
from the rest. Asked through a real HTTP client against a live server."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ingestion.pipeline.embed import get_embedder
from tests.api.helpers import bearer, issue_token
from tests.search.helpers import add_chunk, fresh_term_stats, make_document

pytestmark = pytest.mark.django_db(transaction=True)

LONG = ("Apa kewajiban pengusaha terhadap pekerja yang dipekerjakan dengan PKWT " * 40)[:2000]
QUESTIONS = {
    "one word": "pesangon",
    "2,000 characters": LONG,
    "English": "What are the obligations of an employer towards contract workers?",
    "only stop words": "apa yang dan atau dengan untuk",
}


@pytest.fixture
def token() -> str:
    document = make_document(
        "Peraturan Pemerintah Nomor 35 Tahun 2021",
        source={"jenis": "Peraturan Pemerintah", "nomor": "35", "tahun": "2021"},
    )
    embedder = get_embedder()
    add_chunk(
        document,
        "Pengusaha wajib memberikan uang kompensasi kepada Pekerja/Buruh PKWT.",
        heading_path="BAB II › Pasal 15",
        embedder=embedder,
    )
    add_chunk(
        document,
        "Pengusaha wajib membayar uang pesangon apabila terjadi pemutusan hubungan kerja.",
        heading_path="BAB V › Pasal 40",
        embedder=embedder,
    )
    with fresh_term_stats():
        return issue_token()


def _get(url: str, token: str, q: str) -> httpx.Response:
    return httpx.get(f"{url}/api/search", params={"q": q}, headers=bearer(token), timeout=60)


@pytest.mark.parametrize("kind", QUESTIONS)
def test_an_odd_question_gets_a_list_not_an_error(live_server: Any, token: str, kind: str) -> None:
    response = _get(live_server.url, token, QUESTIONS[kind])
    assert response.status_code == 200, response.text
    body = response.json()
    assert isinstance(body["results"], list)
    assert body["namedRegulationMissing"] is None
    for hit in body["results"]:
        assert hit["documentId"] and hit["text"]


def test_a_regulation_not_in_the_corpus_is_named_and_the_rest_still_answers(
    live_server: Any, token: str
) -> None:
    q = "Apa kewajiban pengusaha membayar uang pesangon menurut Undang-Undang Nomor 27 Tahun 2022?"
    body = _get(live_server.url, token, q).json()
    assert body["namedRegulationMissing"] == "UU 27/2022"
    assert body["results"][0]["headingPath"] == "BAB V › Pasal 40"


def test_a_regulation_in_the_corpus_is_not_reported_missing(live_server: Any, token: str) -> None:
    q = "Kapan uang kompensasi diberikan menurut PP 35/2021?"
    body = _get(live_server.url, token, q).json()
    assert body["namedRegulationMissing"] is None
    assert body["results"][0]["headingPath"] == "BAB II › Pasal 15"
