"""A question that names its regulation ("Apa definisi pasar menurut Peraturan Pemerintah
Nomor 3 Tahun 2010?") is answered by a Pasal of that regulation, never by its opening;
named alone, the regulation's opening is still the answer."""

from __future__ import annotations

import pytest

from ingestion.legal.identity import document_citation
from ingestion.models import Document
from ingestion.search.service import SearchQuery, SearchTuning, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db


def _pp(nomor: int, tahun: int, tentang: str, pasals: list[str]) -> str:
    return Regulation(
        heading=f"PERATURAN PEMERINTAH REPUBLIK INDONESIA\nNOMOR {nomor} TAHUN {tahun}",
        tentang=tentang,
        menetapkan=f"PERATURAN PEMERINTAH TENTANG {tentang}.",
        pasals=pasals,
    ).text()


def _stored(regulation: StoreRegulation, text: str, title: str, key: str) -> Document:
    document = regulation(text, title=title, source_key=key)
    # What identity.new_document stores for such a title; the test helper leaves it blank.
    Document.objects.filter(pk=document.pk).update(citation=document_citation(title, {}))
    return document


@pytest.fixture
def named(regulation: StoreRegulation) -> Document:
    for nomor in (4, 5, 6):
        body = [
            "Dalam Peraturan Pemerintah ini yang dimaksud dengan:\n"
            f"1. Pasar Grosir {nomor} adalah pasar grosir milik negara.\n"
            "2. Pedagang adalah orang yang berjualan.",
            "Retribusi pasar grosir dipungut setiap bulan.",
        ]
        title = f"Peraturan Pemerintah Nomor {nomor} Tahun 2011 tentang Pasar Grosir"
        _stored(regulation, _pp(nomor, 2011, "PASAR GROSIR", body), title, f"pp-{nomor}-2011")
    body = [
        "Dalam Peraturan Pemerintah ini yang dimaksud dengan:\n"
        "1. Pasar adalah tempat bertemunya penjual dan pembeli.\n"
        "2. Pemerintah adalah Pemerintah Pusat.",
        "Pemerintah membangun pasar di setiap kecamatan.",
    ]
    title = "Peraturan Pemerintah Nomor 3 Tahun 2010 tentang Pasar"
    return _stored(regulation, _pp(3, 2010, "PASAR", body), title, "pp-3-2010")


def _top(text: str, tuning: SearchTuning | None = None):  # type: ignore[no-untyped-def]
    hits = search(SearchQuery(text=text, limit=5), embedder=HashEmbedder(), tuning=tuning).results
    return hits[0]


def test_a_definition_question_naming_the_regulation_gets_its_pasal_1(named: Document) -> None:
    top = _top("Apa definisi pasar menurut Peraturan Pemerintah Nomor 3 Tahun 2010?")
    assert top.document_id == str(named.pk)
    assert top.heading_path.endswith("Pasal 1")


def test_any_question_naming_the_regulation_gets_a_pasal_of_it(named: Document) -> None:
    top = _top("Siapa yang membangun pasar menurut Peraturan Pemerintah Nomor 3 Tahun 2010?")
    assert top.document_id == str(named.pk)
    assert "Pasal" in top.heading_path


def test_the_regulation_named_alone_is_answered_by_its_opening(named: Document) -> None:
    top = _top("Peraturan Pemerintah Nomor 3 Tahun 2010")
    assert top.document_id == str(named.pk)
    assert "Pasal" not in top.heading_path
