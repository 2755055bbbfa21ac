"""A result's "sebagaimana dimaksud …" references point at the units they name: in the same
Pasal (``pada ayat (1)``), the same ayat (``huruf a``), another Pasal, another regulation."""

from __future__ import annotations

import pytest

from ingestion.legal.xrefs import find_references
from ingestion.models import Chunk, LegalUnit
from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

PASAL_7 = (
    "(1) Perizinan berusaha berbasis risiko dilakukan berdasarkan tingkat risiko.\n"
    "(2) Tingkat risiko sebagaimana dimaksud pada ayat (1) meliputi:\n"
    "a. kesehatan;\n"
    "b. keselamatan sebagaimana dimaksud dalam huruf a; dan\n"
    "c. lingkungan."
)
PASAL_8 = (
    "Penilaian sebagaimana dimaksud dalam Pasal 7 ayat (2) huruf b dilakukan oleh Bupati"
    " sesuai dengan Pasal 3 Undang-Undang Nomor 11 Tahun 2006 tentang Pemerintahan Aceh."
)


@pytest.fixture
def regulations(regulation: StoreRegulation) -> None:
    regulation(
        Regulation(pasals=["Ketentuan umum zonasi.", "Definisi.", "Lain.", "Lain.", "Lain.",
                           "Lain.", PASAL_7, PASAL_8]).text(),
        title="Perda Banjarnegara 5/2024",
        source_key="perda",
    )  # fmt: skip
    regulation(
        Regulation(
            heading="UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 11 TAHUN 2006",
            tentang="PEMERINTAHAN ACEH",
            pasals=["Aceh adalah daerah provinsi.", "Pemerintahan Aceh.", "Kewenangan Aceh."],
        ).text(),
        title="UU 11/2006",
        source_key="uu-aceh",
    )


def _refs(query: str) -> list[dict[str, object]]:
    hits = search(SearchQuery(text=query, limit=5), embedder=HashEmbedder()).results
    return hits[0].references


def _unit_chunk(document_title: str, **address: str) -> int:
    unit = LegalUnit.objects.filter(
        document__title=document_title, penjelasan=False, **address
    ).order_by("start")[0]
    return unit.chunk_id


def test_find_references_reads_enumerations_and_another_regulation() -> None:
    refs = find_references("sebagaimana dimaksud pada ayat (3), ayat (4), dan ayat (5)")
    assert [r.address.label for r in refs] == ["ayat (3)", "ayat (4)", "ayat (5)"]
    refs = find_references("sebagaimana dimaksud dalam Pasal 3 Undang-Undang Nomor 11 Tahun 2006")
    assert refs[0].address.label == "Pasal 3" and refs[0].regulation is not None
    assert refs[0].regulation.short == "UU 11/2006"
    assert (
        find_references("sebagaimana dimaksud dalam Pasal 4 Peraturan Daerah ini")[0].regulation
        is None
    )


def test_references_in_the_same_pasal_and_the_same_ayat(regulations: None) -> None:
    refs = _refs("tingkat risiko kesehatan keselamatan lingkungan")
    assert [(r["label"], r["unit"]) for r in refs] == [
        ("Pasal 7 ayat (1)", {"pasal": "7", "ayat": "1", "huruf": None, "angka": None}),
        ("Pasal 7 ayat (2) huruf a", {"pasal": "7", "ayat": "2", "huruf": "a", "angka": None}),
    ]
    assert refs[0]["chunkId"] == _unit_chunk("Perda Banjarnegara 5/2024", pasal="7", ayat="1")


def test_a_reference_to_another_pasal_and_to_another_regulation(regulations: None) -> None:
    refs = _refs("penilaian dilakukan oleh Bupati")
    assert [(r["label"], r["citation"]) for r in refs] == [
        ("Pasal 7 ayat (2) huruf b", None),
        ("Pasal 3", "UU 11/2006"),
    ]
    assert refs[0]["chunkId"] == _unit_chunk(
        "Perda Banjarnegara 5/2024", pasal="7", ayat="2", huruf="b"
    )
    pasal_3 = Chunk.objects.get(document__title="UU 11/2006", heading_path__endswith="Pasal 3")
    assert refs[1]["chunkId"] == pasal_3.pk
    assert refs[1]["documentId"] == str(pasal_3.document_id)


def test_a_reference_resolves_at_pasal_level_when_units_are_not_stored(
    regulations: None,
) -> None:
    LegalUnit.objects.all().delete()
    refs = _refs("penilaian dilakukan oleh Bupati")
    pasal_7 = Chunk.objects.filter(heading_path__contains="Pasal 7").order_by("ordinal")[0]
    assert refs[0]["chunkId"] == pasal_7.pk


def test_a_reference_to_a_regulation_not_here_has_no_chunk(regulation: StoreRegulation) -> None:
    regulation(
        Regulation(pasals=["Definisi.", PASAL_8]).text(),
        title="Perda Banjarnegara 6/2024",
        source_key="alone",
    )
    refs = _refs("penilaian dilakukan oleh Bupati")
    assert refs[-1]["citation"] == "UU 11/2006" and refs[-1]["chunkId"] is None
