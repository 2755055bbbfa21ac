"""A reference query ("Pasal 10 Perda Banjarnegara 5/2024") finds the Pasal a scan printed
as "Pasal 1O": the stored number is read again with the OCR digit look-alikes when no
unit has the number as asked. A Pasal printed right is still the one a query names."""

from __future__ import annotations

import pytest

from ingestion.legal.identity import document_citation
from ingestion.models import Document
from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

TITLE = "Peraturan Daerah Kabupaten Banjarnegara Nomor 5 Tahun 2024 tentang Retribusi Pasar"


@pytest.fixture
def scanned(regulation: StoreRegulation) -> Document:
    pasals = [f"Ketentuan nomor {n} tentang retribusi pasar harian." for n in range(1, 12)]
    text = Regulation(pasals=pasals).text().replace("\nPasal 10\n", "\nPasal 1O\n")
    document = regulation(text, title=TITLE, source_key="perda-5-2024")
    Document.objects.filter(pk=document.pk).update(citation=document_citation(TITLE, {}))
    return document


def _top(text: str):  # type: ignore[no-untyped-def]
    return search(SearchQuery(text=text, limit=5), embedder=HashEmbedder()).results[0]


def test_the_misprinted_pasal_answers_its_reference(scanned: Document) -> None:
    top = _top("Pasal 10 Perda Banjarnegara 5/2024")
    assert top.document_id == str(scanned.pk)
    assert "Ketentuan nomor 10 " in top.text


def test_a_pasal_printed_right_still_answers(scanned: Document) -> None:
    top = _top("Pasal 11 Perda Banjarnegara 5/2024")
    assert top.unit is not None and top.unit["pasal"] == "11"
