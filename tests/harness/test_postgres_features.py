"""The test database has what the schema needs: pgvector and Indonesian text search."""

from __future__ import annotations

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_vector_extension_is_available() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")
        row = cursor.fetchone()

    assert row is not None


@pytest.mark.django_db
def test_the_indonesian_text_search_config_stems_words() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_tsvector('indonesian', 'peraturan gubernur')::text")
        (vector,) = cursor.fetchone()

    assert "'atur'" in vector
