"""The contract's identity rules are enforced by Postgres itself."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from ingestion.models import Document, SourceType


def make_document(**overrides: object) -> Document:
    fields: dict[str, object] = {
        "source_type": SourceType.JDIH,
        "title": "Qanun Aceh Nomor 3 Tahun 2026",
        "file_name": "qanun-3-2026.pdf",
        "mime_type": "application/pdf",
        "format": "pdf",
        "storage_key": "jdih/qanun-3-2026.pdf",
        "checksum": "a" * 64,
        "metadata": {"source_key": "jdih-1", "source_version": "2026-07-23T10:15:30Z"},
    }
    fields.update(overrides)
    return Document.objects.create(**fields)


@pytest.mark.django_db
def test_the_same_type_version_and_source_key_cannot_be_stored_twice() -> None:
    make_document()
    with pytest.raises(IntegrityError), transaction.atomic():
        make_document(checksum="b" * 64)


@pytest.mark.django_db
def test_the_same_checksum_and_version_cannot_be_stored_twice() -> None:
    make_document()
    with pytest.raises(IntegrityError), transaction.atomic():
        make_document(metadata={"source_key": "jdih-2", "source_version": "2026-07-23T10:15:30Z"})


@pytest.mark.django_db
def test_a_new_version_of_the_same_source_is_a_new_edition() -> None:
    make_document()
    make_document(
        checksum="c" * 64,
        metadata={"source_key": "jdih-1", "source_version": "2026-08-01T00:00:00Z"},
    )
    assert Document.objects.filter(metadata__source_key="jdih-1").count() == 2


@pytest.mark.django_db
def test_the_partners_existence_query_finds_every_edition() -> None:
    first = make_document()
    second = make_document(
        checksum="d" * 64,
        metadata={"source_key": "jdih-1", "source_version": "2026-09-01T00:00:00Z"},
    )
    make_document(
        source_type=SourceType.PPID,
        checksum="e" * 64,
        metadata={"source_key": "jdih-1", "source_version": "x"},
    )
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT id FROM documents WHERE "sourceType" = %s AND metadata->>'source_key' = %s""",
            ["JDIH", "jdih-1"],
        )
        found = {row[0] for row in cursor.fetchall()}
    assert found == {first.id, second.id}
