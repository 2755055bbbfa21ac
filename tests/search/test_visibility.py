"""Parked chunks and archived or failed documents never appear in results."""

from __future__ import annotations

import pytest

from ingestion.models import DocumentStatus
from ingestion.search.service import SearchQuery, search
from tests.search.helpers import HashEmbedder, add_chunk, make_document

pytestmark = pytest.mark.django_db


def texts(query: str) -> list[str]:
    response = search(SearchQuery(text=query), embedder=HashEmbedder())
    return [hit.text for hit in response.results]


def test_a_parked_chunk_is_never_returned() -> None:
    document = make_document("Pindaian Keputusan Gubernur", status=DocumentStatus.NEEDS_REVIEW)
    add_chunk(document, "Keputusan tentang penetapan lokasi pembangunan dermaga")
    add_chunk(document, "Keputusan tentang dermaga terbaca buram xq", indexed=False)
    assert texts("penetapan lokasi dermaga") == [
        "Keputusan tentang penetapan lokasi pembangunan dermaga"
    ]


@pytest.mark.parametrize("status", [DocumentStatus.ARCHIVED, DocumentStatus.FAILED])
def test_documents_that_are_archived_or_failed_are_hidden(status: str) -> None:
    shown = make_document("Qanun Zakat")
    add_chunk(shown, "Pengelolaan zakat oleh Baitul Mal")
    hidden = make_document("Qanun Zakat Lama", status=status)
    add_chunk(hidden, "Pengelolaan zakat oleh Baitul Mal Aceh lama")
    assert texts("pengelolaan zakat Baitul Mal") == ["Pengelolaan zakat oleh Baitul Mal"]


def test_chunks_of_another_embedding_model_are_not_compared_by_vector() -> None:
    document = make_document("Pedoman Arsip")

    class OtherModel(HashEmbedder):
        model_id = "another-model-v9"

    add_chunk(document, "xylofon kuantum", embedder=OtherModel())
    # No shared words, so only a (wrong) vector comparison could bring it back.
    query = SearchQuery(text="xylofon kuantum sintaksis")
    from ingestion.search.query import SearchMode

    dense_only = search(
        SearchQuery(text=query.text, mode=SearchMode.DENSE), embedder=HashEmbedder()
    )
    assert dense_only.results == []
