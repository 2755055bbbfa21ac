"""One regulation, two copies, and the named unit readable in only one of them (the other
copy's scan lost its header or its ayat): a reference query answers with that unit, from
the copy that holds it, and still cites the regulation once."""

from __future__ import annotations

import pytest

from ingestion.models import Document
from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

HEADING = "PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR 3 TAHUN 2010"
PASALS = [
    "Dalam Peraturan Daerah ini yang dimaksud dengan pasar adalah tempat jual beli.",
    "(1) Retribusi dipungut atas pelayanan pasar.\n(2) Wajib retribusi adalah pedagang.",
    "Besarnya retribusi pelayanan pasar ditetapkan menurut luas tempat usaha.",
]


def _store(regulation: StoreRegulation, damaged: str) -> tuple[Document, Document]:
    """The imported copy is clean; the partner's own copy (the best copy) is ``damaged``."""
    clean = Regulation(heading=HEADING, pasals=PASALS).text()
    imported = regulation(
        clean,
        title="perda/2010/3.md",
        source_key="import:data-peraturan:perda/2010/3.md",
        source={"sourceSystem": "import_corpus"},
    )
    own = regulation(damaged, title="Perda Banjarnegara 3/2010", source_key="jdih-3-2010")
    assert imported.regulation_key and imported.regulation_key == own.regulation_key
    return imported, own


def _first(text: str) -> tuple[str, str, list[str]]:
    hits = search(SearchQuery(text=text, limit=10), embedder=HashEmbedder()).results
    assert hits
    return hits[0].document_id, hits[0].heading_path, [h.heading_path for h in hits]


def test_a_pasal_whose_header_one_copy_lost_answers_from_the_other_copy(
    regulation: StoreRegulation,
) -> None:
    damaged = Regulation(heading=HEADING, pasals=PASALS).text().replace("Pasal 2\n", "")
    imported, _own = _store(regulation, damaged)

    document, heading, paths = _first("Pasal 2 Peraturan Daerah Nomor 3 Tahun 2010")

    assert (document, heading.rsplit(" › ", 1)[-1]) == (str(imported.pk), "Pasal 2")
    assert len(paths) == len(set(paths))


def test_a_copy_holding_the_named_unit_is_preferred_only_when_the_best_copy_lacks_it(
    regulation: StoreRegulation,
) -> None:
    _imported, own = _store(regulation, Regulation(heading=HEADING, pasals=PASALS).text())

    document, heading, _paths = _first("Pasal 2 Peraturan Daerah Nomor 3 Tahun 2010")

    assert (document, heading.rsplit(" › ", 1)[-1]) == (str(own.pk), "Pasal 2")
