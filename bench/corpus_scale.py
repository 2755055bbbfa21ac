"""A real JDIH-scale corpus: bulk import, size, quality and latency with thousands of
regulations as the haystack (``mblonyox/data-peraturan``, markdown of the official PDFs).

Run from the repository root::

    .venv/bin/python bench/corpus_scale.py --corpus /tmp/data-peraturan --only uu --limit 150

The corpus is never part of the repository: fetch ``mblonyox/data-peraturan`` and extract
it outside (``git --git-dir=… archive HEAD uu pp | tar -x -C /tmp/data-peraturan``). The
bench starts its own embedded Postgres, ingests the 15 GALQA regulations as the 15-alone
baseline (``bench/retrieval.py``), then imports the corpus through ``import_corpus``'s
core (:mod:`ingestion.bulk`) and prints:

- import docs/hour and import ÷ raw engines (read + embed + COPY of the same rows) on the
  first ``--raw-sample`` documents;
- RSS after the first hundred documents imported (a resumed run's skips do not count)
  and at the end;
- Postgres bytes per regulation and per chunk;
- GALQA dev R@1/R@5/MRR with the corpus as the haystack beside the 15 regulations alone,
  with the peers on the same questions and corpus: Postgres FTS alone
  (``websearch_to_tsquery('indonesian')``) and BM25 (rank-bm25) over the same chunks;
- reference queries, exact unit first;
- ``/api/search`` over HTTP (a local WSGI server), p50/p95 on the 306 dev questions;
- amendment pairs ("Perubahan … atas"): the share whose target is here and linked.

``--limit`` takes a seeded random sample (newest first within it). On a shared machine
run it with a limit; the figures are then partial and say so.
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import retrieval  # noqa: E402  (bench/retrieval.py, beside this file)

_YEAR_NUMBER = re.compile(r"(?P<tahun>\d{4})/(?P<nomor>\d+)[^/]*\.md$")
SAMPLE_SEED = 21
_AMENDS_TITLE = re.compile(r"perubahan\b.{0,80}\batas\b", re.IGNORECASE | re.DOTALL)


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def corpus_items(root: Path, only: str | None, limit: int | None) -> list[Any]:
    from ingestion.bulk.items import from_paths

    folders = [root / only] if only else [p for p in sorted(root.iterdir()) if p.is_dir()]
    items = from_paths([str(f) for f in folders])

    def newest_first(item: Any) -> tuple[int, int, str]:
        match = _YEAR_NUMBER.search(item.relpath)
        if match is None:
            return (0, 0, item.relpath)
        return (-int(match["tahun"]), int(match["nomor"]), item.relpath)

    items = [with_identity(item) for item in items]
    items.sort(key=newest_first)
    if limit and limit < len(items):
        # A seeded sample: the newest N would be the biggest omnibus laws of recent years.
        picked = random.Random(SAMPLE_SEED).sample(range(len(items)), limit)
        items = [items[i] for i in sorted(picked)]
    return items


JENIS_OF_FOLDER = {"uu": "Undang-Undang", "pp": "Peraturan Pemerintah", "permenkeu": "PMK"}


def with_identity(item: Any) -> Any:
    """The corpus layout names every file (``uu/1954/62.md``): jenis, nomor and tahun as a
    manifest would give them, since some files open with OCR noise instead of a title."""
    from dataclasses import replace

    match = re.match(r"(?P<folder>[a-z]+)/(?P<tahun>\d{4})/(?P<nomor>\d+)\.md$", item.relpath)
    if match is None or match["folder"] not in JENIS_OF_FOLDER:
        return item
    jenis = JENIS_OF_FOLDER[match["folder"]]
    metadata = {"jenis": jenis, "nomor": match["nomor"], "tahun": match["tahun"]}
    title = f"{jenis} Nomor {match['nomor']} Tahun {match['tahun']}"
    return replace(item, metadata=metadata, title=title)


# --- import ----------------------------------------------------------------------------------


def raw_engines(document_id: str, texts: list[str], path: Path, tables: Any) -> tuple[float, float]:
    """Seconds of the raw engines for one document, and of the embedding among them."""
    import pipeline_breakdown as pb

    rows = pb.written_rows(document_id, tables)
    encode = pb.raw_encode(texts)
    return pb.raw_text(path, "txt") + encode + pb.raw_copy(rows, tables), encode


def import_corpus(items: Sequence[Any], raw_sample: int, workers: int) -> dict[str, Any]:
    import pipeline_breakdown as pb

    from ingestion.bulk.one import ImportSettings, ItemStatus, import_item
    from ingestion.bulk.run import run_import

    options = ImportSettings(source_type="JDIH", collection="data-peraturan")
    tables = pb.make_scratch_tables()
    results: list[Any] = []
    ratios: list[tuple[float, float]] = []
    passages: list[tuple[int, float]] = []  # (passages embedded, raw embed seconds) per doc
    rss: dict[str, float] = {"start": rss_mb()}
    started = time.perf_counter()
    for item in items[:raw_sample]:
        with pb.recorded_passages() as texts:
            result = import_item(item, options)
        results.append(result)
        if result.status is ItemStatus.INDEXED and texts:
            raw, encode = raw_engines(result.document_id, texts, item.path, tables)
            ratios.append((result.seconds, raw))
            passages.append((len(texts), encode))
    raw_spent = sum(raw for _imp, raw in ratios)

    done = [len(results)]
    # A resumed run skips what is already indexed without loading the engines: the
    # reference is the hundredth document this run imported, not the hundredth it saw.
    imported = [sum(r.status is not ItemStatus.SKIPPED for r in results)]

    def seen(result: Any) -> None:  # run_import returns its list at the end: count here
        done[0] += 1
        imported[0] += result.status is not ItemStatus.SKIPPED
        if imported[0] == 100 and "after 100" not in rss:
            rss["after 100"] = rss_mb()
        if done[0] % 25 == 0:
            print(f"  imported {done[0]}/{len(items)} (RSS {rss_mb():.0f} MB)", flush=True)

    results += run_import(items[raw_sample:], options, workers=workers, on_result=seen)
    elapsed = time.perf_counter() - started - raw_spent
    rss["end"] = rss_mb()
    return {
        "results": results,
        "elapsed": elapsed,
        "ratios": ratios,
        "passages": passages,
        "rss": rss,
    }


def print_projection(report: dict[str, Any], sampled: int, corpus_total: int) -> None:
    """What the whole folder would take at this run's rate, and what bounds it: the
    passages embedded per document and the raw engine's rate on them."""
    elapsed = report["elapsed"]
    if sampled and sampled < corpus_total:
        hours = corpus_total / (sampled / elapsed) / 3600
        print(f"projected for all {corpus_total} files at this rate: {hours:.1f} h")
    passages = report["passages"]
    if passages:
        count = sum(n for n, _s in passages)
        seconds = sum(s for _n, s in passages)
        print(
            f"raw sample: {count / len(passages):.0f} passages embedded per document; the raw "
            f"embedder alone runs {count / seconds:.1f} passages/s on this machine"
        )


def print_import(report: dict[str, Any], total: int) -> None:
    from ingestion.bulk.one import ItemStatus
    from ingestion.bulk.summary import summarize

    results, elapsed = report["results"], report["elapsed"]
    summary = summarize(results, elapsed)
    print("\n== import ==")
    for line in summary.lines():
        print(line)
    # A resumed run's rate is of what it imported; its skips take no engine time.
    fresh = sum(r.status is not ItemStatus.SKIPPED for r in results)
    print(
        f"docs/hour: {fresh / elapsed * 3600:.0f}"
        f" ({fresh} imported in {elapsed:.0f}s; {len(results)} of {total} seen)"
    )
    ratios = report["ratios"]
    if ratios:
        imported = sum(i for i, _r in ratios)
        raw = sum(r for _i, r in ratios)
        print(
            f"import ÷ raw engines (read + embed + COPY), {len(ratios)} docs: {imported / raw:.2f}×"
        )
    rss = report["rss"]
    line = ", ".join(f"{k} {v:.0f} MB" for k, v in rss.items())
    growth = ""
    if "after 100" in rss:
        growth = (
            f"; growth after the first hundred: {(rss['end'] / rss['after 100'] - 1) * 100:+.1f}%"
        )
    print(f"RSS: {line}{growth}")


# --- size ------------------------------------------------------------------------------------


def print_size() -> None:
    from django.db import connection

    from ingestion.models import Chunk, Document

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        database = int(cursor.fetchone()[0])
        cursor.execute(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r'"
        )
        tables = int(cursor.fetchone()[0] or 0)
    regulations = Document.objects.exclude(regulation_key="").count()
    documents = Document.objects.count()
    chunks = Chunk.objects.count()
    print("\n== Postgres size ==")
    print(f"database {database / 2**20:.0f} MB, tables+indexes {tables / 2**20:.0f} MB")
    print(
        f"{documents} documents ({regulations} with a regulation key), {chunks} chunks: "
        f"{tables / max(documents, 1) / 1024:.0f} KB per document, "
        f"{tables / max(chunks, 1) / 1024:.1f} KB per chunk"
    )


# --- quality ---------------------------------------------------------------------------------


def files_by_document() -> dict[str, str]:
    from ingestion.models import Document

    return {str(d.id): d.file_name for d in Document.objects.only("id", "file_name")}


def fts_runner(files: dict[str, str]) -> Callable[[str], list[Any]]:
    """What pasal.id runs: Postgres full text alone, ``websearch_to_tsquery`` (every word)."""
    from django.db import connection

    sql = """
        SELECT c.document_id, c.heading_path FROM ingestion_chunk c,
             websearch_to_tsquery('indonesian', %s) q
        WHERE c.indexed AND c.search_vector @@ q
        ORDER BY ts_rank(c.search_vector, q) DESC, c.id LIMIT 10
    """

    def run(text: str) -> list[Any]:
        with connection.cursor() as cursor:
            cursor.execute(sql, [text])
            return [retrieval.Retrieved(files[str(d)], h) for d, h in cursor.fetchall()]

    return run


class RepeatCounter:
    """Counts result lists naming the same unit twice (two copies of one regulation, or one
    unit's chunks answering side by side): one regulation must give one answer. Passages
    that cite the regulation alone (a Penjelasan Umum, the preamble: no unit) are distinct
    passages under one citation; lists repeating such a citation are counted apart."""

    def __init__(self, run: Callable[[str], list[Any]]) -> None:
        self.run = run
        self.asked: set[str] = set()  # by question: the warm-up asks the first five twice
        self.repeated: list[str] = []
        self.bare: list[str] = []

    def __call__(self, text: str) -> list[Any]:
        results = self.run(text)
        if text not in self.asked:
            units = [r.citation for r in results if r.citation and r.unit]
            bare = [r.citation for r in results if r.citation and not r.unit]
            if len(units) != len(set(units)):
                self.repeated.append(text)
            if len(bare) != len(set(bare)):
                self.bare.append(text)
        self.asked.add(text)
        return results


def quality(label: str, questions: Sequence[Any], tuning: Any, peers: bool) -> list[Any]:
    files = files_by_document()
    ours = RepeatCounter(retrieval.hybrid_runner("hybrid", files, tuning))
    runs: list[tuple[str, Callable[[str], list[Any]]]] = [(f"ours {label}", ours)]
    if peers:
        runs += [
            (f"dense alone {label}", retrieval.hybrid_runner("dense", files, tuning)),
            (f"fts {label}", fts_runner(files)),
            (f"bm25 {label}", retrieval.bm25_runner(files)),
        ]
    rows = [retrieval.evaluate(name, questions, run) for name, run in runs]
    example = f" (e.g. {ours.repeated[0]!r})" if ours.repeated else ""
    twice, asked = len(ours.repeated), len(ours.asked)
    print(f"{label}: result lists naming the same unit twice: {twice} of {asked}{example}")
    print(f"{label}: lists with two passages citing a regulation alone: {len(ours.bare)}")
    return rows


def print_quality(rows: Sequence[Any], questions: int) -> None:
    print(f"\n== GALQA dev ({questions} questions) ==")
    print(f"{'method':<22} {'R@1':>6} {'R@5':>6} {'MRR':>6} {'p50 ms':>7} {'p95 ms':>7}")
    for s in rows:
        print(
            f"{s.name:<22} {s.recall(1):6.3f} {s.recall(5):6.3f} {s.mrr():6.3f} "
            f"{s.percentile(0.5):7.1f} {s.percentile(0.95):7.1f}"
        )


# --- HTTP ------------------------------------------------------------------------------------


def http_latency(questions: Sequence[Any]) -> tuple[float, float]:
    """p50/p95 of ``GET /api/search`` over HTTP against a local WSGI server (one thread)."""
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    import httpx
    from django.conf import settings
    from django.core.wsgi import get_wsgi_application

    from aceh_rag.api_support import hash_token, new_token
    from ingestion.models import ApiToken

    # The latency of one client asking in turn, not the rate limit: a fast search meets
    # the default 10/second budget.
    settings.API_RATE_LIMIT = "off"
    token = new_token()
    ApiToken.objects.create(
        name=f"bench-{time.time_ns()}", token_hash=hash_token(token), prefix=token[:8]
    )

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args: Any) -> None:
            return None

    server = make_server("127.0.0.1", 0, get_wsgi_application(), handler_class=Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}/api/search"
    latencies: list[float] = []
    with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=30) as client:
        for question in list(questions[:5]) + list(questions):
            started = time.perf_counter()
            response = client.get(url, params={"q": question.text, "limit": 10})
            latencies.append((time.perf_counter() - started) * 1000)
            response.raise_for_status()
    server.shutdown()
    ordered = sorted(latencies[5:])
    return statistics.median(ordered), ordered[round(0.95 * (len(ordered) - 1))]


# --- relations -------------------------------------------------------------------------------


def print_amendments() -> None:
    from ingestion.models import Document, RegulationRelation, RelationKind

    keys = set(Document.objects.exclude(regulation_key="").values_list("regulation_key", flat=True))
    amending = [
        d
        for d in Document.objects.exclude(regulation_key="").only("id", "title")
        if _AMENDS_TITLE.search(_printed_title(d))
    ]
    here = linked = 0
    for document in amending:
        relations = RegulationRelation.objects.filter(
            source_document=document, kind=RelationKind.AMENDS
        )
        targets = [r for r in relations if r.target_key in keys]
        if targets:
            here += 1
            linked += all(r.target_document_id is not None for r in targets)
    kinds = {
        kind: RegulationRelation.objects.filter(kind=kind).count() for kind in RelationKind.values
    }
    repealed = Document.objects.filter(in_force=False).count()
    print("\n== relations ==")
    print(f"relations by kind: {kinds}; documents not in force: {repealed}")
    share = linked / here if here else 0.0
    print(
        f"amendment pairs (title 'Perubahan … atas', target here): {here}, both sides linked "
        f"{linked} = {share:.3f} ({len(amending)} amending documents in all)"
    )


def _printed_title(document: Any) -> str:
    first = document.chunks.order_by("ordinal").values_list("text", flat=True).first() or ""
    return f"{document.title}\n{first[:600]}"


# --- main ------------------------------------------------------------------------------------


def galqa_alone(args: argparse.Namespace, questions: Sequence[Any], tuning: Any) -> list[Any]:
    """The 15 GALQA regulations alone, measured before the corpus arrives. A resumed run
    (``--keep``) finds them measured by the first run and reprints its figures."""
    saved = args.keep / "galqa_alone.pickle" if args.keep else None
    if saved is not None and saved.exists():
        return list(pickle.loads(saved.read_bytes()))
    retrieval.ingest_corpus(args.galqa / "docs")
    rows = quality("15 alone", questions, tuning, peers=not args.no_peers)
    if saved is not None:
        saved.write_bytes(pickle.dumps(rows))
    return rows


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--only", choices=["uu", "pp"])
    parser.add_argument("--limit", type=int)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--raw-sample", type=int, default=10)
    parser.add_argument("--database-url")
    parser.add_argument(
        "--keep",
        type=Path,
        help="keep Postgres and the stored files here (short path, e.g. /tmp/nat): a rerun "
        "resumes the import where it stopped and measures the same database",
    )
    parser.add_argument("--galqa", type=Path, default=retrieval.GALQA)
    parser.add_argument("--no-peers", action="store_true", help="skip FTS and BM25 rows")
    parser.add_argument("--questions", type=int, help="the first N dev questions (smoke runs)")
    parser.add_argument(
        "--skip-galqa", action="store_true", help="no GALQA regulations (a smoke run of the import)"
    )
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found: {args.corpus}")
        return 0
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # a line per stage per document otherwise
    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as tmp:
        work = args.keep or Path(tmp)
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
        retrieval.setup_django(args.database_url, work, args.keep and args.keep / "pg")
        from django.conf import settings

        from ingestion.search.service import SearchTuning

        print(f"embedder: {settings.LOCAL_EMBED_ENGINE}, unit vectors {settings.UNIT_VECTORS}")
        questions = retrieval.load_questions(args.galqa / "dev_questions.csv")[: args.questions]
        retrieval.EMBEDDER = retrieval.TimedEmbedder(None)
        tuning = SearchTuning.from_settings()
        alone = [] if args.skip_galqa else galqa_alone(args, questions, tuning)
        items = corpus_items(args.corpus, args.only, args.limit)
        print(
            f"importing {len(items)} documents from {args.corpus} ({args.only or 'all'})",
            flush=True,
        )
        report = import_corpus(items, args.raw_sample, args.workers)
        print_import(report, len(items))
        print_projection(report, len(items), len(corpus_items(args.corpus, args.only, None)))
        print_size()
        retrieval.analyze()
        haystack = quality(f"+{len(items)} docs", questions, tuning, peers=not args.no_peers)
        print_quality([*alone, *haystack], len(questions))
        retrieval.evaluate_references(
            questions, retrieval.hybrid_runner("hybrid", files_by_document(), tuning)
        )
        p50, p95 = http_latency(questions)
        print(
            f"\n/api/search over HTTP, {len(questions)} dev questions:"
            f" p50 {p50:.1f} ms, p95 {p95:.1f} ms"
        )
        print_amendments()
        partial = args.limit is not None
        print(f"\nfigures {'PARTIAL (--limit)' if partial else 'full'}; machine shared (2 cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
