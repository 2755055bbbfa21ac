""" "Jelaskan apa yang dimaksud dengan X dan Y" asks for two definitions: the Ketentuan Umum
defining both answers it, ahead of a Pasal that only repeats both words."""

from __future__ import annotations

import pytest

from ingestion.legal.definitions import asked_term, term_parts
from ingestion.models import Document
from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

QUESTION = "Jelaskan apa yang dimaksud dengan pedagang kaki lima dan retribusi pasar"


@pytest.fixture
def perda(regulation: StoreRegulation) -> Document:
    text = Regulation(
        pasals=[
            "Dalam Peraturan Daerah ini yang dimaksud dengan:\n"
            "1. Daerah adalah Kabupaten Banjarnegara.\n"
            "2. Pedagang Kaki Lima adalah pedagang yang berjualan di ruang milik jalan.\n"
            "3. Retribusi Pasar adalah pungutan atas pelayanan pasar oleh Pemerintah Daerah.",
            "Pedagang kaki lima yang menempati pasar membayar retribusi pasar; retribusi pasar"
            " pedagang kaki lima ditagih oleh petugas pasar kepada pedagang kaki lima.",
        ]
    ).text()
    return regulation(text, title="Perda Banjarnegara 5/2024", source_key="perda-5-2024")


def test_the_question_reads_as_two_terms() -> None:
    term = asked_term(QUESTION)
    assert term is not None
    assert term_parts(term) == [["pedagang", "kaki", "lima"], ["retribusi", "pasar"]]


def test_the_ketentuan_umum_defining_both_comes_first(perda: Document) -> None:
    hits = search(SearchQuery(text=QUESTION, limit=5), embedder=HashEmbedder()).results
    assert hits[0].document_id == str(perda.pk)
    assert hits[0].heading_path.endswith("Pasal 1")
