"""The chunk table carries the indexes hybrid search depends on."""

from __future__ import annotations

import pytest
from django.db import connection


def index_definitions(table: str) -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s", [table])
        return dict(cursor.fetchall())


@pytest.mark.django_db
def test_chunk_embeddings_have_an_hnsw_cosine_index() -> None:
    definition = index_definitions("ingestion_chunk")["chunk_embedding_hnsw"]
    assert "USING hnsw" in definition
    assert "vector_cosine_ops" in definition


@pytest.mark.django_db
def test_unit_vectors_have_no_hnsw_index_as_search_reads_them_by_chunk() -> None:
    definitions = index_definitions("ingestion_legalunit").values()
    assert not [d for d in definitions if "USING hnsw" in d]


@pytest.mark.django_db
def test_chunk_text_has_a_gin_full_text_index() -> None:
    definition = index_definitions("ingestion_chunk")["chunk_search_vector_gin"]
    assert "USING gin" in definition


@pytest.mark.django_db
def test_chunk_search_vector_uses_the_indonesian_configuration() -> None:
    from ingestion.models import Chunk, Document, SourceType

    document = Document.objects.create(
        source_type=SourceType.UPLOAD,
        title="t",
        file_name="t.txt",
        mime_type="text/plain",
        format="txt",
        storage_key="k",
        checksum="f" * 64,
        metadata={"source_key": "k", "source_version": "1"},
    )
    Chunk.objects.create(document=document, ordinal=0, text="Peraturan ini mulai berlaku")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT search_vector::text FROM ingestion_chunk WHERE document_id = %s",
            [document.id],
        )
        vector = cursor.fetchone()[0]
    # The indonesian stemmer reduces "Peraturan" to its root "atur".
    assert "'atur'" in vector
