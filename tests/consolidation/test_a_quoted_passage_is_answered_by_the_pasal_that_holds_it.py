"""A query that is a passage of a Pasal, word for word, is answered by that Pasal in its
wording in force, even when a near twin shares most of its words (Tipikor Pasal 11 and 12);
a short question is no quotation, and a passage found everywhere leads nowhere."""

from __future__ import annotations

import pytest

from ingestion.search import phrase
from ingestion.search.query import SearchQuery
from tests.consolidation.helpers import search_fresh

pytestmark = pytest.mark.django_db

# UU 20/2001's Pasal 11 restates UU 31/1999 Pasal 11; Pasal 12 huruf a–b share most words.
PASAL_11 = (
    "patut diduga, bahwa hadiah atau janji tersebut diberikan karena kekuasaan atau kewenangan"
)
ENACTING = "memerintahkan pengundangan Undang-Undang ini dengan penempatannya dalam Lembaran Negara"


def test_a_passage_of_an_amended_pasal_cites_that_pasal_in_force(
    tipikor: tuple[str, str],
) -> None:
    _original, amending = tipikor
    first = search_fresh(PASAL_11)[0]
    assert first.citation == "UU 31/1999 Pasal 11"
    assert first.consolidated is True
    assert first.document_id == amending


def test_case_punctuation_and_line_breaks_do_not_break_a_run() -> None:
    text = "Pasal 11\nDipidana pegawai negeri yang\nmenerima HADIAH, atau janji."
    span = phrase.find_run(text, phrase.words("pegawai negeri yang menerima hadiah atau janji"))
    assert span is not None
    assert text[span[0] : span[1]] == "pegawai negeri yang\nmenerima HADIAH, atau janji"
    assert phrase.find_run(text, phrase.words("pegawai negeri yang menolak hadiah")) is None


def test_a_short_question_is_not_read_as_a_quotation(tipikor: tuple[str, str]) -> None:
    assert phrase.quoted_chunks(SearchQuery(text="hadiah kepada pegawai negeri"), []) == []


def test_a_passage_in_more_units_than_the_cap_leads_nowhere(
    tipikor: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(phrase.quoted_chunks(SearchQuery(text=ENACTING), [])) == 2  # one per law
    monkeypatch.setattr(phrase, "MAX_PLACES", 1)
    assert phrase.quoted_chunks(SearchQuery(text=ENACTING), []) == []


def test_a_passage_that_fills_the_phrase_querys_page_leads_nowhere(
    tipikor: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The places past a full page are not counted, so the run may be anywhere.
    monkeypatch.setattr(phrase, "CANDIDATES", 2)
    assert phrase.quoted_chunks(SearchQuery(text=ENACTING), []) == []


def test_every_run_of_the_passage_in_a_chunk_is_found() -> None:
    text = "Menimbang: pegawai negeri yang menerima hadiah. Pasal 5 pegawai negeri yang menerima"
    runs = phrase.find_runs(text, phrase.words("pegawai negeri yang menerima"))
    assert [text[a:b] for a, b in runs] == ["pegawai negeri yang menerima"] * 2
    assert runs[0][0] < runs[1][0]
