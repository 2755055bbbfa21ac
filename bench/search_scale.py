"""Search latency at scale: ~300,000 synthetic chunks, p50/p95 of hybrid search.

Run from the repository root: ``.venv/bin/python bench/search_scale.py [--chunks N]``.
It starts its own embedded Postgres in a temp dir (or uses ``--database-url``; the
database is filled, so never point it at real data), migrates, and bulk-loads documents and
chunks with binary COPY: random unit 384-d vectors and generated Indonesian-ish text whose
word frequencies follow a Zipf law (common words are in a large share of chunks, as in
real regulations). Indexes are dropped for the load and rebuilt after, as a bulk import
would. Queries are generated from the same vocabulary; the query "embedding" is a random
unit vector from an embedder with the chunks' model id, so the time measured is the
database work plus fusion, not the e5 model. Goal: hybrid p95 < 150 ms.

Legal units are loaded too (``--units-per-chunk``, default 3: the Pasal and two embedded
ayat, about what the corpus regulations average), so the search pays what it pays in
production: the unit re-scoring of the top candidates and the cited unit of every result.
The unit vectors have no HNSW index: search reads them only through their chunk
(migration 0019, docs/decisions.md).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GOAL_P95_MS = 150.0
MODEL_ID = "bench-random-384"
CHUNKS_PER_DOCUMENT = 300
WORDS_PER_CHUNK = 120

STEMS = """
atur perintah daerah qanun aceh gubernur bupati wali kota pajak retribusi layan
umum kerja tenaga pekerja upah jaminan sosial sehat didik sekolah guru anggar
belanja dapat hasil usaha milik desa gampong mukim adat syariat zakat infak
sedekah baitul mal hutan tanah air laut ikan tani kebun ternak jalan bangun
rumah tinggal izin usaha dagang pasar harga barang jasa angkut kendara parkir
terminal lalu lintas sungai sampah lingkung hidup cemar limbah energi listrik
tambang minyak gas bumi wisata budaya seni olahraga pemuda perempuan anak
lindung sosial miskin bantu bencana alam banjir gempa tsunami aman tertib
damai hukum sanksi denda pidana kurung cabut ubah tetap tunda batal sah
""".split()
PREFIXES = ["", "pe", "pem", "pen", "per", "ke", "ber", "di", "me", "mem"]
SUFFIXES = ["", "an", "kan", "i", "nya"]
SYLLABLES = (
    "ba bi bu da di du ga gi ka ki ku la li lu ma mi mu na ni nu ra ri ru sa si su ta ti tu".split()
)


def vocabulary(size: int, rng: random.Random) -> list[str]:
    words = [p + s + x for s in STEMS for p in PREFIXES[:4] for x in SUFFIXES[:3]]
    while len(words) < size:
        words.append("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    rng.shuffle(words)
    return words[:size]


def zipf_sampler(vocab: list[str], rng: np.random.Generator) -> np.ndarray:
    weights = 1.0 / np.arange(1, len(vocab) + 1) ** 1.05
    return weights / weights.sum()


def random_units(n: int, dim: int, rng: np.random.Generator) -> np.ndarray:
    vectors = rng.standard_normal((n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


def setup_django(database_url: str | None) -> None:
    if database_url is None:
        from scripts.services import start_postgres

        postgres = start_postgres()
        import atexit

        atexit.register(postgres.stop)
        database_url = postgres.url
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


UNIT_INDEXES = ("legal_unit_search_gin", "legal_unit_document_pasal")


def load(n_chunks: int, seed: int, units_per_chunk: int) -> None:
    from django.db import connection
    from pgvector.psycopg import register_vector

    py_rng = random.Random(seed)
    rng = np.random.default_rng(seed)
    vocab = vocabulary(20_000, py_rng)
    probs = zipf_sampler(vocab, rng)
    n_docs = max(1, n_chunks // CHUNKS_PER_DOCUMENT)
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(%s)",
            [["chunk_embedding_hnsw", "chunk_search_vector_gin", *UNIT_INDEXES]],
        )
        indexes = cursor.fetchall()
        for name, _definition in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
        doc_ids = [uuid.uuid4() for _ in range(n_docs)]
        raw = connection.connection
        register_vector(raw)
        with raw.cursor() as cur:
            _copy_documents(cur, doc_ids, py_rng)
            _copy_chunks(cur, doc_ids, n_chunks, vocab, probs, rng)
            units = _copy_units(cur, units_per_chunk, rng)
        print(
            f"load: {n_chunks} chunks and {units} legal units in {n_docs} documents,"
            f" {time.perf_counter() - started:.0f}s"
        )
        started = time.perf_counter()
        cursor.execute("SET maintenance_work_mem = '1GB'")
        for name, definition in indexes:
            t0 = time.perf_counter()
            cursor.execute(definition)
            print(f"index {name}: {time.perf_counter() - t0:.0f}s")
        cursor.execute("ANALYZE ingestion_chunk")
        cursor.execute("ANALYZE ingestion_legalunit")
        cursor.execute("ANALYZE documents")
    print(f"indexes + analyze: {time.perf_counter() - started:.0f}s")
    print_sizes(n_chunks)


def print_sizes(n_chunks: int) -> None:
    """Heap and index sizes of the chunk and unit tables: the figures docs/scaling.md scales up."""
    from django.db import connection

    for table in ("ingestion_chunk", "ingestion_legalunit"):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c "
                "WHERE c.relname = %s OR c.oid IN ("
                "  SELECT indexrelid FROM pg_index WHERE indrelid = %s::regclass)"
                " ORDER BY 2 DESC",
                [table, table],
            )
            rows = cursor.fetchall()
            cursor.execute("SELECT pg_total_relation_size(%s::regclass)", [table])
            (total,) = cursor.fetchone()
        for name, size in rows:
            print(f"size {name}: {size / 2**20:.0f} MiB ({size / n_chunks:.0f} B/chunk)")
        print(f"size {table} total (heap, TOAST, indexes): {total / 2**20:.0f} MiB")


def _copy_documents(cur: object, doc_ids: list[uuid.UUID], rng: random.Random) -> None:
    import json

    sql = (
        'COPY documents (id, "sourceType", metadata, registry_id, collection_id, '
        "collection_name, uploaded_by, title, title_labels, citation, file_name, mime_type, "
        "format, storage_key, checksum, size_bytes, status, failure_reason, created_at, "
        "updated_at, regulation_key, regulation_region) "
        "FROM STDIN"
    )
    with cur.copy(sql) as copy:  # type: ignore[attr-defined]
        for i, doc_id in enumerate(doc_ids):
            tahun = str(2000 + i % 26)
            meta = {
                "source_key": f"bench-{i}",
                "source_version": "1",
                "source": {"jenis": "Qanun", "nomor": str(i), "tahun": tahun},
            }
            copy.write_row(
                (
                    doc_id, "JDIH", json.dumps(meta), "", "", "JDIH", "",
                    f"Qanun Nomor {i} Tahun {tahun}", "", "", f"q{i}.pdf", "application/pdf",
                    "pdf", f"bench/q{i}.pdf", f"{i:064x}", 1000, "indexed", "",
                    "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "", "",
                )
            )  # fmt: skip


def _copy_chunks(
    cur: object,
    doc_ids: list[uuid.UUID],
    n_chunks: int,
    vocab: list[str],
    probs: np.ndarray,
    rng: np.random.Generator,
) -> None:
    sql = (
        "COPY ingestion_chunk (document_id, ordinal, text, heading_path, page_from, page_to, "
        "token_count, indexed, review_state, embedding, embedding_model) "
        "FROM STDIN WITH (FORMAT BINARY)"
    )
    batch = 10_000
    vocab_arr = np.array(vocab)
    with cur.copy(sql) as copy:  # type: ignore[attr-defined]
        copy.set_types(
            ["uuid", "int4", "text", "text", "int4", "int4", "int4", "bool", "varchar",
             "vector", "varchar"]
        )  # fmt: skip
        for start in range(0, n_chunks, batch):
            size = min(batch, n_chunks - start)
            words = vocab_arr[rng.choice(len(vocab), size=(size, WORDS_PER_CHUNK), p=probs)]
            vectors = random_units(size, 384, rng)
            for j in range(size):
                n = start + j
                doc = doc_ids[n % len(doc_ids)]
                ordinal = n // len(doc_ids)
                copy.write_row(
                    (
                        doc, ordinal, " ".join(words[j]), f"BAB I › Pasal {ordinal + 1}",
                        1 + ordinal // 3, 1 + ordinal // 3, WORDS_PER_CHUNK, True, "",
                        vectors[j], MODEL_ID,
                    )
                )  # fmt: skip


def _copy_units(cur: Any, per_chunk: int, rng: np.random.Generator) -> int:
    """Per chunk: its Pasal (the whole text) and ``per_chunk - 1`` ayat splitting it evenly.

    Rows are written by Postgres from the chunks just loaded (the text is a substring of
    the chunk's, as in production); the ayat get random vectors of the chunk's model.
    """
    if per_chunk <= 0:
        return 0
    ayat = per_chunk - 1
    cur.execute(
        "INSERT INTO ingestion_legalunit (document_id, chunk_id, kind, label, pasal, ayat, "
        'huruf, angka, depth, penjelasan, start, "end", page, text, context, '
        "embedding_model) "
        "SELECT c.document_id, c.id, 'pasal', 'Pasal ' || (c.ordinal + 1), "
        "(c.ordinal + 1)::text, '', '', '', 0, false, 0, length(c.text), c.page_from, c.text, "
        "c.heading_path, '' FROM ingestion_chunk c"
    )
    count = int(cur.rowcount)
    if not ayat:
        return count
    cur.execute("SELECT id, length(text) FROM ingestion_chunk ORDER BY id")
    chunks = cur.fetchall()
    sql = (
        "COPY ingestion_legalunit (document_id, chunk_id, kind, label, pasal, ayat, huruf, "
        'angka, depth, penjelasan, start, "end", page, text, context, embedding, '
        "embedding_model) FROM STDIN WITH (FORMAT BINARY)"
    )
    cur.execute("CREATE TEMP TABLE unit_load (LIKE ingestion_legalunit INCLUDING DEFAULTS)")
    cur.execute("ALTER TABLE unit_load DROP COLUMN search_vector, DROP COLUMN id")
    with cur.copy(sql.replace("ingestion_legalunit", "unit_load")) as copy:
        copy.set_types(
            ["uuid", "int8", "varchar", "varchar", "varchar", "varchar", "varchar", "varchar",
             "int2", "bool", "int4", "int4", "int4", "text", "text", "vector", "varchar"]
        )  # fmt: skip
        for start in range(0, len(chunks), 10_000):
            batch = chunks[start : start + 10_000]
            vectors = random_units(len(batch) * ayat, 384, rng)
            for j, (chunk_id, length) in enumerate(batch):
                step = length // ayat
                for a in range(ayat):
                    copy.write_row(
                        (
                            uuid.UUID(int=0), chunk_id, "ayat", "", "", str(a + 1), "", "", 1,
                            False, a * step, length if a == ayat - 1 else (a + 1) * step, 1,
                            "", "", vectors[j * ayat + a], MODEL_ID,
                        )
                    )  # fmt: skip
    cur.execute(
        "INSERT INTO ingestion_legalunit (document_id, chunk_id, kind, label, pasal, ayat, "
        'huruf, angka, depth, penjelasan, start, "end", page, text, context, embedding, '
        "embedding_model) "
        "SELECT c.document_id, u.chunk_id, u.kind, 'Pasal ' || (c.ordinal + 1) || "
        "' ayat (' || u.ayat || ')', (c.ordinal + 1)::text, u.ayat, '', '', 1, false, u.start, "
        'u."end", c.page_from, substr(c.text, u.start + 1, u."end" - u.start), '
        "c.heading_path, u.embedding, u.embedding_model "
        "FROM unit_load u JOIN ingestion_chunk c ON c.id = u.chunk_id"
    )
    count += int(cur.rowcount)
    cur.execute("DROP TABLE unit_load")
    return count


class RandomEmbedder:
    model_id = MODEL_ID

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def embed_query(self, text: str, *, interactive: bool = True) -> list[float]:
        return [float(x) for x in random_units(1, 384, self.rng)[0]]


def measure(n_queries: int, seed: int) -> None:
    from ingestion.search.service import SearchMode, SearchQuery, search

    rng = random.Random(seed + 1)
    vocab = vocabulary(20_000, random.Random(seed))
    common, rare = vocab[:300], vocab[300:5000]
    queries = [
        " ".join(rng.sample(common, rng.randint(2, 4)) + rng.sample(rare, rng.randint(1, 3)))
        for _ in range(n_queries)
    ]
    embedder = RandomEmbedder(seed)
    print(f"\n{'mode':<8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for mode in (SearchMode.HYBRID, SearchMode.LEXICAL, SearchMode.DENSE):
        for text in queries[:5]:
            search(SearchQuery(text=text, mode=mode), embedder=embedder)  # type: ignore[arg-type]
        timings = []
        for text in queries:
            t0 = time.perf_counter()
            search(SearchQuery(text=text, mode=mode), embedder=embedder)  # type: ignore[arg-type]
            timings.append((time.perf_counter() - t0) * 1000)
        timings.sort()
        p50 = timings[len(timings) // 2]
        p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
        print(f"{mode.value:<8} {p50:8.1f} {p95:8.1f} {timings[-1]:8.1f}")
        if mode is SearchMode.HYBRID:
            verdict = "met" if p95 < GOAL_P95_MS else "NOT met"
            hybrid_line = f"goal (hybrid p95 < {GOAL_P95_MS} ms): {verdict}"
    print(hybrid_line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", help="an EMPTY scratch database to fill")
    parser.add_argument("--chunks", type=int, default=300_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--units-per-chunk", type=int, default=3, help="0: no legal units")
    parser.add_argument("--skip-load", action="store_true", help="measure an already loaded DB")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-scale-"):
        setup_django(args.database_url)
        if not args.skip_load:
            load(args.chunks, args.seed, args.units_per_chunk)
        measure(args.queries, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
