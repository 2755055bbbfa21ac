"""Search: a repealed regulation is hidden unless asked for, then ranked after the rest;
each result says whether it is in force and which regulations here amend it."""

from __future__ import annotations

import pytest

from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import StoreRegulation, amending, plain, repealing
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

TARGET = "Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar"
QUERY = "retribusi dipungut atas pelayanan pasar"


def _titles(include_repealed: bool = False) -> list[tuple[str, bool | None]]:
    query = SearchQuery(text=QUERY, limit=20, include_repealed=include_repealed)
    hits = search(query, embedder=HashEmbedder()).results
    seen: dict[str, bool | None] = {}
    for hit in hits:
        seen.setdefault(hit.title, hit.in_force)
    return list(seen.items())


@pytest.fixture
def corpus(regulation: StoreRegulation) -> None:
    # The repealed Perda matches the query best (its text repeats the query's words).
    regulation(
        plain("3", "2010", "RETRIBUSI PASAR RETRIBUSI PASAR PELAYANAN PASAR"),
        title="Perda 3/2010 Retribusi Pasar Pelayanan",
        source_key="old",
    )
    regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")


def test_a_repealed_regulation_is_hidden_by_default(corpus: None) -> None:
    assert _titles() == [("Perda 9/2024", True)]


def test_include_repealed_ranks_it_after_the_regulations_in_force(corpus: None) -> None:
    assert _titles(include_repealed=True) == [
        ("Perda 9/2024", True),
        ("Perda 3/2010 Retribusi Pasar Pelayanan", False),
    ]


def test_a_repealed_result_names_its_repealer(corpus: None) -> None:
    query = SearchQuery(text=QUERY, limit=20, include_repealed=True)
    hits = [h for h in search(query, embedder=HashEmbedder()).results if h.in_force is False]
    assert hits and all(h.repealed_by == ["Perda Banjarnegara 9/2024"] for h in hits)
    assert hits[0].to_json()["inForce"] is False


def test_an_amended_result_says_by_what(regulation: StoreRegulation) -> None:
    regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    regulation(amending(TARGET), title="Perda 1/2024", source_key="new")
    hits = search(SearchQuery(text=QUERY, limit=20), embedder=HashEmbedder()).results
    old = [h for h in hits if h.title == "Perda 3/2010"]
    assert old and old[0].amended_by == ["Perda Banjarnegara 1/2024"] and old[0].in_force is True


def test_a_result_that_is_no_regulation_has_unknown_status(regulation: StoreRegulation) -> None:
    regulation("Retribusi pasar dipungut atas pelayanan pasar.\n", title="Catatan rapat")
    hits = search(SearchQuery(text=QUERY), embedder=HashEmbedder()).results
    assert [(h.title, h.in_force) for h in hits] == [("Catatan rapat", None)]


def test_the_benchmark_can_set_status_aside_and_rank_by_relevance_alone(corpus: None) -> None:
    query = SearchQuery(text=QUERY, limit=20, include_repealed=True, in_force_first=False)
    hits = search(query, embedder=HashEmbedder()).results
    assert hits[0].title == "Perda 3/2010 Retribusi Pasar Pelayanan"  # the best match
