"""The classification label visibility filters on has an index of exactly its expression:
Postgres keeps statistics for it, so it knows how many regulations a token may see and walks
the HNSW index for the nearest chunks instead of scanning every visible chunk (965 ms
against 0.5 ms at 1,550 regulations). A change to the expression must change the index."""

from __future__ import annotations

import pytest
from django.db import connection

from ingestion.visibility import CLASSIFICATION_SQL

pytestmark = pytest.mark.django_db


def test_a_filter_on_the_label_can_use_the_label_index() -> None:
    label = CLASSIFICATION_SQL.format(a="d")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN SELECT d.id FROM documents d WHERE {label} = 'publik'")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "documents_classification_label" in plan
