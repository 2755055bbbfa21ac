"""Lexical ranking weighs words by rarity (BM25 with IDF from the planner's statistics)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingestion.search.lexical import term_stats
from ingestion.search.service import SearchMode, SearchQuery, search
from tests.search.helpers import HashEmbedder, add_chunk, fresh_term_stats, make_document

pytestmark = pytest.mark.django_db

COMMON = "Pemerintah daerah wajib melaksanakan urusan pemerintahan daerah sesuai kewenangan"


@pytest.fixture
def corpus() -> Iterator[dict[str, str]]:
    document = make_document("Peraturan Tenaga Kerja Asing")
    for number in range(30):
        add_chunk(document, f"{COMMON} bagian {number}. Pemerintah daerah membina.")
    rare = add_chunk(document, "Perpanjangan pengesahan RPTKA diajukan oleh pemberi kerja")
    with fresh_term_stats():
        yield {"rare": rare.text}


def test_a_rare_word_outranks_many_common_ones(corpus: dict[str, str]) -> None:
    query = SearchQuery(text="pengesahan RPTKA pemerintah daerah", mode=SearchMode.LEXICAL)
    response = search(query, embedder=HashEmbedder())
    assert response.results[0].text == corpus["rare"]


def test_statistics_know_common_lexemes_are_common(corpus: dict[str, str]) -> None:
    stats = term_stats()
    assert stats.frequency("daerah") > 0.5
    assert stats.idf("rptka") > stats.idf("daerah")
