"""A chunk whose text yields no token is stored without a vector, and is still indexed
(the int8 engine with late chunking, the path that reads token states)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from ingestion.models import Chunk
from ingestion.pipeline import embed
from ingestion.pipeline.base import ChunkDraft
from ingestion.pipeline.embed_choices import LocalEmbedEngine, UnitVectors
from ingestion.pipeline.index import write_document
from ingestion.pipeline.late_chunk import document_vectors
from ingestion.search.query import SearchQuery
from ingestion.search.service import search
from tests.search.helpers import make_document

pytestmark = pytest.mark.django_db

NOTHING = "\x01\x02\x03\x04\x05\x06\x07\x08"  # control characters: normalised away


def _draft(ordinal: int, text: str, heading: list[str]) -> ChunkDraft:
    return ChunkDraft(
        ordinal=ordinal, text=text, heading_path=heading, page_from=1, page_to=1, token_count=8
    )


@override_settings(
    MODEL_GATEWAY_URL=None,
    LOCAL_EMBED_ENGINE=LocalEmbedEngine.INT8,
    UNIT_VECTORS=UnitVectors.LATE,
)
def test_a_chunk_of_no_token_has_no_vector_but_its_heading_is_searchable() -> None:
    engine = embed.get_embedder()
    assert isinstance(engine, embed.OnnxE5Embedder)
    drafts = [
        _draft(0, "Retribusi pasar dipungut setiap hari.", []),
        _draft(1, NOTHING, ["Lampiran Kuitansi"]),
    ]
    vectors, _units = document_vectors(drafts, engine)
    assert vectors[0] is not None and vectors[1] is None
    document = make_document("Qanun Aceh Nomor 9 Tahun 2026 tentang Uji")
    write_document(document, drafts, vectors, model_id=engine.model_id, threshold=0.6, page_count=1)
    empty = Chunk.objects.get(document=document, ordinal=1)
    assert empty.embedding is None and empty.embedding_model == "" and empty.indexed
    hits = search(SearchQuery("kuitansi"), embedder=engine).results
    assert any(hit.chunk_id == empty.pk for hit in hits)
