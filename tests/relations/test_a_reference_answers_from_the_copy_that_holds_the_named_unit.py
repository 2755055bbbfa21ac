"""One regulation, two copies, and the named unit readable in only one of them (the other
copy's scan lost its header or its ayat, or misprinted its number): a reference query
answers with that unit, from the copy that holds it, and still cites the regulation once."""

from __future__ import annotations

import pytest

from ingestion.models import Document
from ingestion.search.service import SearchHit, SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

HEADING = "PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR 3 TAHUN 2010"
PASALS = [
    "Dalam Peraturan Daerah ini yang dimaksud dengan pasar adalah tempat jual beli.",
    "(1) Retribusi dipungut atas pelayanan pasar.\n(2) Wajib retribusi adalah pedagang.",
    "Besarnya retribusi pelayanan pasar ditetapkan menurut luas tempat usaha.",
]


def _store(
    regulation: StoreRegulation, damaged: str, *, imported_last: bool = False
) -> tuple[Document, Document]:
    """The imported copy is clean; the partner's own copy (the best copy) is ``damaged``.
    ``imported_last``: the imported copy is the newer document, so its unit leads the list."""
    clean = Regulation(heading=HEADING, pasals=PASALS).text()

    def imported() -> Document:
        return regulation(
            clean,
            title="perda/2010/3.md",
            source_key="import:data-peraturan:perda/2010/3.md",
            source={"sourceSystem": "import_corpus"},
        )

    def own() -> Document:
        return regulation(damaged, title="Perda Banjarnegara 3/2010", source_key="jdih-3-2010")

    if imported_last:
        own_copy, imported_copy = own(), imported()
    else:
        imported_copy, own_copy = imported(), own()
    assert imported_copy.regulation_key
    assert imported_copy.regulation_key == own_copy.regulation_key
    return imported_copy, own_copy


def _hits(text: str) -> list[SearchHit]:
    hits = search(SearchQuery(text=text, limit=10), embedder=HashEmbedder()).results
    assert hits
    return hits


def test_a_pasal_whose_header_one_copy_lost_answers_from_the_other_copy(
    regulation: StoreRegulation,
) -> None:
    damaged = Regulation(heading=HEADING, pasals=PASALS).text().replace("Pasal 2\n", "")
    imported, _own = _store(regulation, damaged)

    hits = _hits("Pasal 2 Peraturan Daerah Nomor 3 Tahun 2010")

    assert hits[0].heading_path.rsplit(" › ", 1)[-1] == "Pasal 2"
    # the whole answer moved onto the copy that holds the unit, each passage once
    assert {h.document_id for h in hits} == {str(imported.pk)}
    assert len({h.heading_path for h in hits}) == len(hits)


def test_a_copy_holding_the_named_unit_is_preferred_only_when_the_best_copy_lacks_it(
    regulation: StoreRegulation,
) -> None:
    # The imported copy is the newer document: its Pasal 2 is the first one pinned.
    clean = Regulation(heading=HEADING, pasals=PASALS).text()
    _imported, own = _store(regulation, clean, imported_last=True)

    hits = _hits("Pasal 2 Peraturan Daerah Nomor 3 Tahun 2010")

    assert hits[0].heading_path.rsplit(" › ", 1)[-1] == "Pasal 2"
    assert {h.document_id for h in hits} == {str(own.pk)}


def test_a_copy_printing_the_number_as_asked_answers_before_a_misprinted_best_copy(
    regulation: StoreRegulation,
) -> None:
    # The partner's own scan (the best copy) printed Pasal 10 as "Pasal 1O"; the imported
    # copy printed it right. "1O" is read as 10 only when no copy holds a Pasal 10.
    pasals = [f"Ketentuan nomor {n} tentang retribusi pasar harian." for n in range(1, 12)]
    clean = Regulation(heading=HEADING, pasals=pasals).text()
    imported = regulation(
        clean,
        title="perda/2010/3.md",
        source_key="import:data-peraturan:perda/2010/3.md",
        source={"sourceSystem": "import_corpus"},
    )
    damaged = clean.replace("\nPasal 10\n", "\nPasal 1O\n")
    regulation(damaged, title="Perda Banjarnegara 3/2010", source_key="jdih-3-2010")

    hits = _hits("Pasal 10 Peraturan Daerah Nomor 3 Tahun 2010")

    assert hits[0].document_id == str(imported.pk)
    assert hits[0].unit is not None and hits[0].unit["pasal"] == "10"
