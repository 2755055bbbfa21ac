"""A gloss in parentheses ("hak portabilitas data (data portability)") translates a term
for the reader in words the corpus does not use: it is left out of the embedded and the
matched text. An abbreviation of the regulation's own ("(PKWT)"), an ayat number and a
parenthesis of words the corpus holds stay."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingestion.search.understand import MAX_QUERY_CHARS, bounded, understand, without_glosses
from tests.search.helpers import add_chunk, fresh_term_stats, make_document

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def corpus() -> Iterator[None]:
    document = make_document("Undang-Undang Nomor 27 Tahun 2022")
    add_chunk(
        document,
        "Subjek Data Pribadi berhak atas portabilitas data dan memberikan persetujuan. "
        "Perjanjian Kerja Waktu Tertentu (PKWT) dibuat secara tertulis oleh pekerja harian.",
        heading_path="BAB III › Pasal 13",
    )
    with fresh_term_stats():
        yield


def test_an_english_gloss_is_dropped() -> None:
    text = "Jelaskan hak portabilitas data (data portability) bagi subjek data"
    assert without_glosses(text) == "Jelaskan hak portabilitas data bagi subjek data"


def test_a_one_word_gloss_is_dropped_and_the_rest_is_searched() -> None:
    asked = understand("Kapan persetujuan (consent) diperlukan?")
    assert asked.text == "Kapan persetujuan diperlukan?"
    assert "consent" not in asked.lex


def test_the_regulations_own_abbreviation_and_an_ayat_stay() -> None:
    text = "Apa isi Perjanjian Kerja Waktu Tertentu (PKWT) menurut Pasal 5 ayat (2)"
    assert without_glosses(text) == text


def test_a_parenthesis_of_words_the_corpus_uses_stays() -> None:
    text = "Siapa yang disebut pekerja (pekerja harian)?"
    assert without_glosses(text) == text


def test_a_pasted_page_is_cut_at_a_word_within_the_bound() -> None:
    text = bounded("pesangon " * 500)
    assert len(text) <= MAX_QUERY_CHARS
    assert text.split()[-1] == "pesangon"
