"""The same regulation from two sources (an imported copy and the partner's own) is one
regulation: search cites each Pasal once, from the partner's copy; the document page and
the API list the other copy; a repeal linked to one copy repeals both."""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client

from ingestion.models import Document
from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation, repealing
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

PERDA = Regulation(
    heading="PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR 3 TAHUN 2010",
    pasals=[
        "Dalam Peraturan Daerah ini yang dimaksud dengan pasar adalah tempat jual beli.",
        "Retribusi dipungut atas pelayanan pasar kepada setiap pedagang.",
        "Besarnya retribusi pelayanan pasar ditetapkan menurut luas tempat usaha.",
    ],
)
QUERY = "retribusi dipungut atas pelayanan pasar"


@pytest.fixture
def copies(regulation: StoreRegulation) -> tuple[Document, Document]:
    imported = regulation(
        PERDA.text(),
        title="perda/2010/3.md",
        source_key="import:data-peraturan:perda/2010/3.md",
        source={"sourceSystem": "import_corpus"},
    )
    own = regulation(PERDA.text(), title="Perda Banjarnegara 3/2010", source_key="jdih-3-2010")
    assert imported.regulation_key and imported.regulation_key == own.regulation_key
    return imported, own


def test_search_cites_each_pasal_once_from_the_partners_own_copy(
    copies: tuple[Document, Document],
) -> None:
    _imported, own = copies
    hits = search(SearchQuery(text=QUERY, limit=20), embedder=HashEmbedder()).results

    assert hits and {h.document_id for h in hits} == {str(own.pk)}
    per_chunk = Counter(h.chunk_id for h in hits)
    assert set(per_chunk.values()) == {1}
    paths = [h.heading_path for h in hits]
    assert len(paths) == len(set(paths))


def test_a_named_reference_answers_from_one_copy_too(copies: tuple[Document, Document]) -> None:
    _imported, own = copies
    query = SearchQuery(text="Pasal 2 Peraturan Daerah Nomor 3 Tahun 2010", limit=10)
    hits = search(query, embedder=HashEmbedder()).results
    pasal_2 = [h for h in hits if h.heading_path.endswith("Pasal 2")]
    assert len(pasal_2) == 1 and pasal_2[0].document_id == str(own.pk)


def test_the_document_page_and_the_api_list_the_other_copy(
    copies: tuple[Document, Document], admin_client: Client
) -> None:
    imported, own = copies
    html = admin_client.get(f"/documents/{imported.pk}/").content.decode()
    assert "Salinan lain peraturan ini" in html
    assert f'href="/documents/{own.pk}/">Perda Banjarnegara 3/2010</a>' in html
    body = admin_client.get(f"/api/documents/{own.pk}").json()
    assert [c["documentId"] for c in body["copies"]] == [str(imported.pk)]


def test_a_repeal_linked_to_one_copy_repeals_every_copy(
    copies: tuple[Document, Document], regulation: StoreRegulation
) -> None:
    regulation(
        repealing("Peraturan Daerah Kabupaten Banjarnegara Nomor 3 Tahun 2010 tentang Pasar"),
        title="Perda 9/2024",
        source_key="new",
    )
    assert {
        d.in_force for d in Document.objects.filter(regulation_key=copies[0].regulation_key)
    } == {False}
