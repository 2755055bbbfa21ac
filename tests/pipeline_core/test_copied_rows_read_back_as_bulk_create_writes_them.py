"""The index stage writes chunks and units by binary COPY (ingestion/copy_rows.py). What it
stores must be what ``bulk_create`` stores: every column, the generated ones included."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from ingestion.copy_rows import copy_insert
from ingestion.models import Chunk, Document, DocumentStatus, LegalUnit, ReviewState, SourceType

pytestmark = pytest.mark.django_db


def _document(key: str) -> Document:
    return Document.objects.create(
        source_type=SourceType.JDIH,
        title=f"UU {key}",
        file_name=f"{key}.md",
        mime_type="text/markdown",
        format="md",
        storage_key=f"t/{key}.md",
        checksum=key,
        status=DocumentStatus.PROCESSING,
    )


def _chunks(document: Document) -> list[Chunk]:
    vector = [i / settings.EMBEDDING_DIM - 0.5 for i in range(settings.EMBEDDING_DIM)]
    return [
        Chunk(
            document=document,
            ordinal=0,
            text="Pasal 1\nDalam Undang-Undang ini yang dimaksud dengan Data Pribadi …",
            heading_path="BAB I › KETENTUAN UMUM",
            page_from=1,
            page_to=2,
            token_count=17,
            ocr_confidence=0.875,
            embedding=vector,
            embedding_model="e5-test",
            regions=[{"page": 1, "bbox": [0.1, 0.2, 0.3, 0.4]}],
        ),
        Chunk(
            document=document,
            ordinal=1,
            text="ÿ ≠ §",
            indexed=False,
            review_state=ReviewState.PENDING,
        ),
    ]


def _units(document: Document, chunk: Chunk) -> list[LegalUnit]:
    common: dict[str, Any] = {"document": document, "chunk": chunk, "pasal": "1"}
    return [
        LegalUnit(kind="pasal", label="Pasal 1", start=0, end=60, text="Pasal 1 …", **common),
        LegalUnit(
            kind="angka",
            label="Pasal 1 angka 1",
            angka="1",
            depth=1,
            start=8,
            end=60,
            text="Data Pribadi adalah …",
            context="Pasal 1",
            embedding=[0.25] * settings.EMBEDDING_DIM,
            embedding_model="e5-test",
            **common,
        ),
    ]


def _stored(model: type[Chunk | LegalUnit], ids: list[int]) -> list[dict[str, Any]]:
    """Every column as the database spells it, without the keys that differ by design."""
    with connection.cursor() as cursor:
        table = model._meta.db_table
        cursor.execute(f"SELECT * FROM {table} WHERE id = ANY(%s) ORDER BY id", [ids])
        names = [c.name for c in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    for row in rows:
        for key in ("id", "document_id", "chunk_id"):
            row.pop(key, None)
    return rows


def test_copied_chunks_and_units_store_every_column_as_bulk_create_does() -> None:
    by_insert, by_copy = _document("a"), _document("b")
    inserted = Chunk.objects.bulk_create(_chunks(by_insert))
    copied = copy_insert(Chunk, _chunks(by_copy))
    assert _stored(Chunk, [c.pk for c in copied]) == _stored(Chunk, [c.pk for c in inserted])
    units_inserted = LegalUnit.objects.bulk_create(_units(by_insert, inserted[0]))
    units_copied = copy_insert(LegalUnit, _units(by_copy, copied[0]))
    assert _stored(LegalUnit, [u.pk for u in units_copied]) == _stored(
        LegalUnit, [u.pk for u in units_inserted]
    )


def test_copied_rows_get_ascending_primary_keys_and_are_saved_objects() -> None:
    chunks = copy_insert(Chunk, _chunks(_document("c")))
    assert [c.pk for c in chunks] == sorted(c.pk for c in chunks)
    assert all(not c._state.adding for c in chunks)
    stored = Chunk.objects.get(pk=chunks[0].pk)
    assert stored.ordinal == 0 and stored.embedding is not None
    written = chunks[0].embedding
    assert written is not None
    assert stored.embedding[3] == pytest.approx(written[3], abs=1e-7)
    assert Chunk.objects.get(pk=chunks[1].pk).embedding is None


def test_copying_nothing_writes_nothing() -> None:
    assert copy_insert(Chunk, []) == []
    assert Chunk.objects.count() == 0


def test_a_row_pointing_at_an_unsaved_document_is_refused_as_bulk_create_refuses_it() -> None:
    unsaved = Document(title="belum disimpan")
    unsaved.pk = None  # its UUID default would otherwise look like a saved row's key
    with pytest.raises(ValueError, match="unsaved related object"):
        copy_insert(Chunk, [Chunk(document=unsaved, ordinal=0, text="x")])
    assert Chunk.objects.count() == 0
