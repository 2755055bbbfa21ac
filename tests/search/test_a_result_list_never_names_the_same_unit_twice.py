"""A Pasal too long for one chunk is stored as several; a question matching all of them
gets that Pasal once, and the rest of the list from other units."""

from __future__ import annotations

import pytest

from ingestion.legal.identity import document_citation
from ingestion.models import Chunk, Document
from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

SENTENCE = "Pengelolaan sampah rumah tangga dilaksanakan oleh pemerintah daerah setiap hari"


@pytest.fixture
def long_pasal(regulation: StoreRegulation) -> Document:
    long = " ".join(f"{SENTENCE} di wilayah {n} sesuai rencana." for n in range(60))
    text = Regulation(
        heading="PERATURAN PEMERINTAH REPUBLIK INDONESIA\nNOMOR 81 TAHUN 2012",
        tentang="PENGELOLAAN SAMPAH",
        menetapkan="PERATURAN PEMERINTAH TENTANG PENGELOLAAN SAMPAH.",
        pasals=["Sampah rumah tangga berasal dari kegiatan sehari-hari.", long],
    ).text()
    title = "Peraturan Pemerintah Nomor 81 Tahun 2012 tentang Pengelolaan Sampah"
    document = regulation(text, title=title, source_key="pp-81-2012")
    Document.objects.filter(pk=document.pk).update(citation=document_citation(title, {}))
    return document


def test_the_long_pasal_is_several_chunks_but_one_hit(long_pasal: Document) -> None:
    pieces = [c for c in Chunk.objects.filter(document=long_pasal) if "Pasal 2" in c.heading_path]
    assert len(pieces) >= 2  # the premise: Pasal 2 is stored in several chunks
    hits = search(
        SearchQuery(text="pengelolaan sampah rumah tangga oleh pemerintah daerah", limit=10),
        embedder=HashEmbedder(),
    ).results
    units = [h.citation for h in hits if h.unit]  # the opening and closing cite no unit
    assert "PP 81/2012 Pasal 2" in units
    assert len(units) == len(set(units))
