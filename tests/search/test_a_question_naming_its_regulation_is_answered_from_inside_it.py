"""A question that names its regulation ("Apa definisi pasar menurut Peraturan Daerah
Nomor 3 Tahun 2010?") is answered by a Pasal of that regulation, never by its opening;
named alone, the regulation's opening is still the answer."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ingestion.models import Document
from ingestion.search.service import SearchQuery, SearchTuning, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db


def _perda(nomor: int, tahun: int, tentang: str, pasals: list[str]) -> str:
    return Regulation(
        heading=f"PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR {nomor} TAHUN {tahun}",
        tentang=tentang,
        menetapkan=f"PERATURAN DAERAH TENTANG {tentang}.",
        pasals=pasals,
    ).text()


@pytest.fixture
def named(regulation: StoreRegulation) -> Document:
    for nomor in (4, 5, 6):
        regulation(
            _perda(
                nomor,
                2011,
                "RETRIBUSI PASAR GROSIR",
                [
                    f"Dalam Peraturan Daerah ini yang dimaksud dengan pasar grosir {nomor} adalah"
                    " pasar grosir milik daerah.",
                    "Retribusi pasar grosir dipungut setiap bulan.",
                ],
            ),
            title=f"Peraturan Daerah Kabupaten Banjarnegara Nomor {nomor} Tahun 2011",
            source_key=f"perda-{nomor}-2011",
        )
    return regulation(
        _perda(
            3,
            2010,
            "PASAR DAERAH",
            [
                "Dalam Peraturan Daerah ini yang dimaksud dengan Pasar adalah tempat bertemunya"
                " penjual dan pembeli yang dikelola Pemerintah Daerah.",
                "Pemerintah Daerah membangun pasar di setiap kecamatan.",
            ],
        ),
        title="Peraturan Daerah Kabupaten Banjarnegara Nomor 3 Tahun 2010 tentang Pasar Daerah",
        source_key="perda-3-2010",
    )


def _top(text: str, tuning: SearchTuning | None = None):  # type: ignore[no-untyped-def]
    hits = search(SearchQuery(text=text, limit=5), embedder=HashEmbedder(), tuning=tuning).results
    return hits[0]


def test_a_definition_question_naming_the_regulation_gets_its_pasal_1(named: Document) -> None:
    top = _top("Apa definisi pasar menurut Peraturan Daerah Nomor 3 Tahun 2010?")
    assert top.document_id == str(named.pk)
    assert top.heading_path.endswith("Pasal 1")


def test_without_the_scope_the_opening_would_answer(named: Document) -> None:
    tuning = replace(SearchTuning.from_settings(), named_scope=False)
    top = _top("Apa definisi pasar menurut Peraturan Daerah Nomor 3 Tahun 2010?", tuning)
    assert "Pasal" not in top.heading_path  # what the scope fixes: the cover ranked first


def test_the_regulation_named_alone_is_answered_by_its_opening(named: Document) -> None:
    top = _top("Peraturan Daerah Nomor 3 Tahun 2010")
    assert top.document_id == str(named.pk)
    assert "Pasal" not in top.heading_path
