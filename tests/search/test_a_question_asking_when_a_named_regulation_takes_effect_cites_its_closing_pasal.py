""" "Kapan PP Nomor 3 Tahun 2010 mulai berlaku?" is answered by the Pasal that says when that
regulation takes effect ("Peraturan Pemerintah ini mulai berlaku pada tanggal diundangkan"),
not by the transitional rule that opens "Pada saat Peraturan Pemerintah ini mulai berlaku,"
nor by another regulation's closing Pasal. A question that asks more is searched as usual."""

from __future__ import annotations

import pytest

from ingestion.legal.identity import document_citation
from ingestion.models import Document
from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db


def _store(
    regulation: StoreRegulation, nomor: int, tahun: int, pasals: list[str], closing: str
) -> None:
    text = Regulation(
        heading=f"PERATURAN PEMERINTAH REPUBLIK INDONESIA\nNOMOR {nomor} TAHUN {tahun}",
        tentang="PASAR",
        menetapkan="PERATURAN PEMERINTAH TENTANG PASAR.",
        pasals=pasals,
        closing=[closing],
    ).text()
    title = f"Peraturan Pemerintah Nomor {nomor} Tahun {tahun} tentang Pasar"
    document = regulation(text, title=title, source_key=f"pp-{nomor}-{tahun}")
    Document.objects.filter(pk=document.pk).update(citation=document_citation(title, {}))


@pytest.fixture
def regulations(regulation: StoreRegulation) -> None:
    _store(
        regulation,
        3,
        2010,
        [
            "Pemerintah membangun pasar di setiap kecamatan.",
            "Retribusi pasar mulai berlaku bagi pedagang sejak bulan pertama pasar dibuka.",
            "Pada saat Peraturan Pemerintah ini mulai berlaku, izin pasar yang ada tetap berlaku.",
        ],
        "Peraturan Pemerintah ini mulai berlaku pada tanggal diundangkan.",
    )
    _store(
        regulation,
        4,
        2011,
        [
            "Pasar grosir dibangun di setiap provinsi.",
            "Pada saat Peraturan Pemerintah ini mulai berlaku, pasar grosir yang ada tetap buka.",
        ],
        "Peraturan Pemerintah ini mulai berlaku setelah 90 (sembilan puluh) hari sejak "
        "tanggal diundangkan.",
    )


def _first_citation(text: str) -> str:
    hits = search(SearchQuery(text=text, limit=5), embedder=HashEmbedder()).results
    assert hits
    return hits[0].citation or ""


@pytest.mark.parametrize(
    "question",
    [
        "Kapan PP Nomor 3 Tahun 2010 mulai berlaku?",
        "Sejak kapan Peraturan Pemerintah Nomor 3 Tahun 2010 berlaku?",
        "tanggal berlakunya PP 3/2010",
    ],
)
def test_the_closing_pasal_of_the_named_regulation_is_cited_first(
    regulations: None, question: str
) -> None:
    assert _first_citation(question) == "PP 3/2010 Pasal 4"


def test_another_regulations_closing_pasal_is_its_own(regulations: None) -> None:
    assert _first_citation("Kapan PP 4/2011 mulai berlaku?") == "PP 4/2011 Pasal 3"


def test_a_question_asking_more_than_when_is_searched_as_usual(regulations: None) -> None:
    assert (
        _first_citation("Kapan retribusi pasar mulai berlaku bagi pedagang menurut PP 3/2010?")
        == "PP 3/2010 Pasal 2"
    )
