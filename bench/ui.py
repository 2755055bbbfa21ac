"""Admin UI benchmark: server time per page with 10,000 documents and 300,000 chunks.

Run from the repository root (DATABASE_URL as for the app; unset = the embedded Postgres):

    .venv/bin/python bench/ui.py [--docs 10000] [--chunks-per-doc 30] [--repeat 7] [--keep]

It creates a separate database (``test_<name>``, migrated like the test suite's), loads the
rows with COPY, renders every main page through Django's test client as an admin and prints
the median and worst server time and the query count per page. ``--keep`` reuses the loaded
database on the next run instead of rebuilding it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
    setup_test_environment,
)

from ingestion.models import Chunk, Document, IngestionJob  # noqa: E402

STATUSES = [("indexed", 85), ("needs_review", 5), ("failed", 3), ("queued", 2), ("archived", 5)]
WORDS = (
    "pemerintah aceh qanun pasal ayat retribusi pelayanan kesehatan pendidikan anggaran "
    "daerah gubernur bupati wali kota peraturan ketentuan umum pajak izin usaha dinas"
).split()


def _status(rng: random.Random) -> str:
    return rng.choices([s for s, _ in STATUSES], weights=[w for _, w in STATUSES])[0]


def _copy(table: str, columns: list[str], rows: Iterator[list[Any]]) -> int:
    count = 0
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg 3 cursor under Django's wrapper
        with raw.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                count += 1
    return count


def load(docs: int, chunks_per_doc: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    now = datetime.now(UTC)
    plan = [(uuid.uuid4(), _status(rng), now - timedelta(minutes=i)) for i in range(docs)]
    started = time.monotonic()

    def doc_rows() -> Iterator[list[Any]]:
        for i, (pk, status, created) in enumerate(plan):
            year = str(2000 + i % 26)
            meta = (
                f'{{"source_key": "jdih-{i}", "source_version": "1", "source": '
                f'{{"tahun": "{year}", "nomor": "{i % 90}", "jenis": "Qanun"}}}}'
            )
            title = (
                f"Qanun Aceh Nomor {i % 90} Tahun {year} tentang {' '.join(rng.sample(WORDS, 3))}"
            )
            reason = "PDF rusak / tidak dapat dibaca" if status == "failed" else ""
            yield [
                pk,
                "JDIH",
                meta,
                "",
                "",
                "",
                "",
                title,
                "",
                f"q{i}.pdf",
                "application/pdf",
                "pdf",
                f"jdih/q{i}.pdf",
                f"{i:064x}",
                1000,
                10,
                0.9,
                status,
                reason,
                created,
                created,
                None,
                f"Qanun Aceh {i % 90}/{year}",
                "",
                "",
            ]

    doc_columns = [
        "id",
        '"sourceType"',
        "metadata",
        "registry_id",
        "collection_id",
        "collection_name",
        "uploaded_by",
        "title",
        "title_labels",
        "file_name",
        "mime_type",
        "format",
        "storage_key",
        "checksum",
        "size_bytes",
        "page_count",
        "ocr_confidence",
        "status",
        "failure_reason",
        "created_at",
        "updated_at",
        "indexed_at",
        "citation",
        "regulation_key",
        "regulation_region",
    ]
    _copy(Document._meta.db_table, doc_columns, doc_rows())

    def regions(n: int, parked: bool) -> str:
        # Where the chunk sits (as the pipeline stores it): a block box, OCR lines if parked.
        top = 60 + (n % 3) * 250
        lines = ", ".join(
            f'{{"box": [72, {top + 20 * i}, 520, {top + 20 * i + 14}], "c": 0.5, "o": {60 * i}, '
            f'"n": 58}}'
            for i in range(6)
        )
        return (
            f'[{{"page": {1 + n // 3}, "w": 595, "h": 842, "unit": "pt", "dpi": 72, '
            f'"boxes": [[72, {top}, 520, {top + 120}]]'
            + (f', "lines": [{lines}]' if parked else "")
            + "}]"
        )

    def chunk_rows() -> Iterator[list[Any]]:
        for pk, status, _ in plan:
            for n in range(chunks_per_doc):
                parked = status == "needs_review" and n % 3 == 0
                text = " ".join(rng.choices(WORDS, k=60))
                yield [
                    pk,
                    n,
                    text,
                    f"BAB {n // 10 + 1} › Pasal {n + 1}",
                    1 + n // 3,
                    1 + n // 3,
                    60,
                    0.5 if parked else 0.95,
                    not parked,
                    "pending" if parked else "",
                    "",
                    regions(n, parked),
                ]

    chunk_columns = [
        "document_id",
        "ordinal",
        "text",
        "heading_path",
        "page_from",
        "page_to",
        "token_count",
        "ocr_confidence",
        "indexed",
        "review_state",
        "embedding_model",
        "regions",
    ]
    chunks = _copy(Chunk._meta.db_table, chunk_columns, chunk_rows())

    def job_rows() -> Iterator[list[Any]]:
        states = {"indexed": "done", "archived": "done", "needs_review": "needs_review"}
        for i, (pk, status, created) in enumerate(plan):
            state = states.get(status, status)
            finished = None if state == "queued" else created + timedelta(seconds=20 + i % 40)
            started_at = None if state == "queued" else created
            origin = "kafka" if i % 2 else "upload"
            partner = uuid.uuid4() if origin == "kafka" else None
            yield [
                uuid.uuid4(),
                partner,
                origin,
                pk,
                state,
                "",
                0,
                1,
                "",
                "",
                "{}",
                "",
                created,
                started_at,
                finished,
            ]

    job_columns = [
        "id",
        "partner_job_id",
        "origin",
        "document_id",
        "state",
        "stage",
        "progress",
        "attempts",
        "error",
        "status_text",
        "payload",
        "lock_key",
        "created_at",
        "started_at",
        "finished_at",
    ]
    _copy(IngestionJob._meta.db_table, job_columns, job_rows())
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"loaded {docs} documents, {chunks} chunks in {time.monotonic() - started:.1f}s")


def measure(client: Client, url: str, repeat: int) -> tuple[float, float, int]:
    times: list[float] = []
    queries = 0
    # "htmx:" marks the partial a page's poll fetches (the dashboard refreshes every 10 s).
    headers = {"HX-Request": "true"} if url.startswith("htmx:") else {}
    url = url.removeprefix("htmx:")
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            began = time.perf_counter()
            response = client.get(url, headers=headers)
            times.append((time.perf_counter() - began) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        queries = len(captured)
    return statistics.median(times), max(times), queries


def pages() -> list[tuple[str, Callable[[], str]]]:
    def first(status: str) -> str:
        return str(Document.objects.filter(status=status).values_list("pk", flat=True)[0])

    def located(status: str) -> str:
        chunk = Chunk.objects.filter(document_id=first(status)).order_by("ordinal").first()
        return f"/documents/{first(status)}/?chunk={chunk.pk if chunk else 0}"

    return [
        ("dasbor", lambda: "/"),
        ("dasbor, poll htmx", lambda: "htmx:/"),
        ("daftar dokumen", lambda: "/documents/"),
        ("daftar, halaman 200", lambda: "/documents/?page=200"),
        ("filter status+tahun", lambda: "/documents/?status=indexed&tahun=2019"),
        ("cari judul", lambda: "/documents/?q=retribusi+kesehatan"),
        ("detail dokumen", lambda: f"/documents/{first('indexed')}/"),
        ("detail + letak potongan", lambda: located("indexed")),
        ("antrean tinjauan", lambda: "/review/"),
        ("tinjau dokumen", lambda: f"/review/{first('needs_review')}/"),
        ("pekerjaan kafka", lambda: "/jobs/"),
        (
            "detail pekerjaan",
            lambda: f"/jobs/{IngestionJob.objects.values_list('pk', flat=True)[0]}/",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--chunks-per-doc", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep and reuse the bench database")
    args = parser.parse_args()

    setup_test_environment()
    original = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, keepdb=args.keep, serialize=False)
    try:
        if not Document.objects.exists():
            load(args.docs, args.chunks_per_doc)
        user, _ = User.objects.get_or_create(username="bench-admin", is_superuser=True)
        client = Client()
        client.force_login(user)
        total_docs = Document.objects.count()
        total_chunks = Chunk.objects.count()
        print(f"database: {total_docs} documents, {total_chunks} chunks")
        print(f"{'halaman':<22} {'median ms':>10} {'terburuk ms':>12} {'kueri':>6}")
        for name, url in pages():
            median, worst, queries = measure(client, url(), args.repeat)
            print(f"{name:<22} {median:>10.1f} {worst:>12.1f} {queries:>6}")
    finally:
        if not args.keep:
            connection.creation.destroy_test_db(original, verbosity=0)


if __name__ == "__main__":
    main()
