"""The export reads every table inside one REPEATABLE READ snapshot: a document committed
by another connection while the export runs is in none of its tables."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from django.db import connection, connections

from ingestion.export.rows import queryset
from ingestion.export.tables import TABLES
from ingestion.export.writer import snapshot
from ingestion.models import Document
from tests.export.small import small_document

pytestmark = pytest.mark.django_db(transaction=True)


def _commit_elsewhere(store: Path) -> None:
    try:
        small_document(store, "baru", "dokumen yang tiba saat ekspor berjalan")
    finally:
        connections.close_all()  # this thread's own connection


def test_a_document_committed_meanwhile_is_not_seen(store_dir: Path) -> None:
    small_document(store_dir, "lama", "dokumen yang sudah ada")
    with snapshot():
        with connection.cursor() as cursor:
            cursor.execute("SHOW transaction_isolation")
            assert cursor.fetchone() == ("repeatable read",)
        counts = {t.name: queryset(t).count() for t in TABLES}
        writer = threading.Thread(target=_commit_elsewhere, args=(store_dir,))
        writer.start()
        writer.join()
        assert {t.name: queryset(t).count() for t in TABLES} == counts
    assert Document.objects.count() == 2  # it was committed, only not in the snapshot
