"""BM25 scores at most ``CANDIDATE_CAP`` matching chunks, taken in whatever order the table
gives them. When pairs of the question's words match more chunks than that (at 90,000
chunks every GALQA question's did), the match asks for groups of three or four of its
rarest words instead, so the chunk holding them all is among those scored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingestion.search import lexical
from ingestion.search.lexical import TermStats, bm25_candidates, match_query
from ingestion.search.query import SearchQuery
from tests.search.helpers import add_chunk, fresh_term_stats, make_document

pytestmark = pytest.mark.django_db

QUESTION = "jaminan sosial pekerja migran pelindungan"
TARGET = "Pekerja migran mendapat pelindungan berupa jaminan sosial."


@pytest.fixture
def crowded(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """50 chunks share three of the words, 10 the other two; the one holding all five is
    written last, so a cap of 20 taken in table order would never reach it."""
    monkeypatch.setattr(lexical, "CANDIDATE_CAP", 20)
    document = make_document("Undang-Undang Pelindungan Pekerja Migran")
    for n in range(50):
        add_chunk(document, f"Pekerja migran berhak atas pelindungan hukum, bagian {n}.")
    for n in range(10):
        add_chunk(document, f"Jaminan sosial ketenagakerjaan diatur tersendiri, bagian {n}.")
    target = add_chunk(document, TARGET)
    with fresh_term_stats():
        yield target.id


def test_the_chunk_holding_every_rare_word_is_scored_and_first(crowded: int) -> None:
    found = bm25_candidates(QUESTION, SearchQuery(text=QUESTION), limit=10)
    assert found and found[0].chunk_id == crowded


def test_pairs_stay_the_match_while_they_fit_under_the_cap() -> None:
    stats = TermStats(freq={"a": 0.01, "b": 0.01, "c": 0.01}, chunks=1000.0)
    assert match_query(["a", "b", "c"], stats).count("&") == 3  # three pairs


def test_a_word_common_by_count_no_longer_matches_alone() -> None:
    small = TermStats(freq={"rare": 0.01, "x": 0.3, "y": 0.3}, chunks=5000.0)
    large = TermStats(freq={"rare": 0.01, "x": 0.3, "y": 0.3}, chunks=90_000.0)
    assert "'rare' |" in match_query(["x", "y", "rare"], small) + " |"
    assert " | 'rare'" not in match_query(["x", "y", "rare"], large)


def test_a_two_word_question_needs_both_words_before_the_cap_takes_any_thousand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "Apa yang dimaksud dengan iuran?" keeps two words; "dimaksud" is in every
    # "sebagaimana dimaksud". Matching either word let the cap take 20 of those first.
    monkeypatch.setattr(lexical, "CANDIDATE_CAP", 20)
    document = make_document("Peraturan Pemerintah Jaminan Sosial")
    for n in range(40):
        add_chunk(document, f"Pasal {n} sebagaimana dimaksud pada ayat (1) berlaku umum.")
    target = add_chunk(document, "Iuran yang dimaksud adalah sejumlah uang yang dibayar.")
    with fresh_term_stats():
        found = bm25_candidates("dimaksud iuran", SearchQuery(text="dimaksud iuran"), limit=5)
    assert found and found[0].chunk_id == target.id
