"""What a round trip must keep, read from one instance: counts per table, the /api/search
results of 20 queries, the review state of every chunk, the in-force status of every
regulation, every original's sha256.

Run as ``python -m tests.export.snapshot TOKEN`` it prints the snapshot of the instance
its environment names (DATABASE_URL, OBJECT_STORAGE_URL) as JSON.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

QUERIES = [
    "retribusi pasar",
    "pasar adalah tempat jual beli",
    "pelayanan pasar",
    "pajak daerah",
    "ketentuan umum",
    "ketentuan penutup",
    "mulai berlaku pada tanggal diundangkan",
    "dicabut dan dinyatakan tidak berlaku",
    "perubahan atas peraturan daerah",
    "pemerintahan daerah",
    "bupati banjarnegara",
    "menimbang bahwa pasar perlu ditata",
    "retribusi dipungut",
    "dikoreksi",
    "Pasal 1",
    "Pasal 2 ayat",
    "tata ruang",
    "peraturan daerah nomor 5 tahun 2020",
    "kabupaten banjarnegara 2025",
    "sumber pendapatan daerah",
]


def counts() -> dict[str, int]:
    from ingestion.export.rows import queryset
    from ingestion.export.tables import TABLES

    return {t.name: queryset(t).count() for t in TABLES}


def searches(token: str) -> dict[str, list[list[Any]]]:
    from django.db import connection
    from django.test import Client

    from ingestion.search.lexical import reset_term_stats

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ingestion_chunk")
        cursor.execute("ANALYZE ingestion_legalunit")
    reset_term_stats()
    client = Client()
    found: dict[str, list[list[Any]]] = {}
    for query in QUERIES:
        response = client.get(
            "/api/search", {"q": query, "limit": "10"}, headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code == 200, response.content
        body = response.json()
        found[query] = [body["degraded"]] + [
            [h["documentId"], h.get("citation"), h["headingPath"], h["pageFrom"], h["text"]]
            for h in body["results"]
        ]
    return found


def review_states() -> dict[str, list[Any]]:
    from ingestion.models import Chunk

    rows = Chunk.objects.values_list("document_id", "ordinal", "indexed", "review_state", "text")
    return {f"{d}#{o}": [i, r, hashlib.sha256(t.encode()).hexdigest()] for d, o, i, r, t in rows}


def in_force() -> dict[str, bool | None]:
    from ingestion.models import Document

    return {str(pk): value for pk, value in Document.objects.values_list("pk", "in_force")}


def originals() -> dict[str, str]:
    from ingestion.models import Document
    from ingestion.storage import get_storage

    storage = get_storage()
    shas = {}
    for pk, key in Document.objects.values_list("pk", "storage_key"):
        with storage.open(key) as source:
            shas[str(pk)] = hashlib.sha256(source.read()).hexdigest()
    return shas


def snapshot(token: str) -> dict[str, Any]:
    return {
        "counts": counts(),
        "search": searches(token),
        "review": review_states(),
        "inForce": in_force(),
        "originals": originals(),
    }


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Each difference as a line a person reads (empty: the round trip lost nothing)."""
    lines = []
    for part, expected in before.items():
        actual = after.get(part, {})
        for key in sorted(set(expected) | set(actual)):
            if expected.get(key) != actual.get(key):
                lines.append(f"{part}[{key}]: {expected.get(key)!r} → {actual.get(key)!r}")
    return lines


def main() -> None:
    import django
    from django.test.utils import setup_test_environment

    django.setup()
    setup_test_environment()
    json.dump(snapshot(sys.argv[1]), sys.stdout)


if __name__ == "__main__":
    main()
