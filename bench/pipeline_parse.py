"""Parse throughput: pages/s of ``parse()`` against raw PyMuPDF ``page.get_text()``.

Run from the repository root: ``.venv/bin/python bench/pipeline_parse.py [PDF ...]``
(defaults to the PDFs of /work/shared/corpus/docs). Goal: parse ≥ 0.8× raw speed.
Each file is timed as the best of ``--repeat`` runs so a cold cache does not decide.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion.pipeline.parse import ParseLimits, parse

CORPUS = Path("/work/shared/corpus/docs")
GOAL = 0.8


def raw_text(path: Path) -> int:
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
        return int(doc.page_count)


def parsed(path: Path) -> int:
    return parse(path, "pdf", ParseLimits()).page_count


def best_seconds(fn: Callable[[Path], int], path: Path, repeat: int) -> tuple[float, int]:
    best = float("inf")
    pages = 0
    for _ in range(repeat):
        started = time.perf_counter()
        pages = fn(path)
        best = min(best, time.perf_counter() - started)
    return best, pages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    pdfs = args.pdfs or sorted(CORPUS.glob("*.pdf"))
    if not pdfs:
        print("no PDFs found (corpus absent?)")
        return 0
    total_raw = total_parse = 0.0
    total_pages = 0
    print(f"{'file':<52} {'pages':>5} {'raw p/s':>9} {'parse p/s':>10} {'ratio':>6}")
    for pdf in pdfs:
        raw_s, pages = best_seconds(raw_text, pdf, args.repeat)
        parse_s, _ = best_seconds(parsed, pdf, args.repeat)
        total_raw += raw_s
        total_parse += parse_s
        total_pages += pages
        print(
            f"{pdf.name[:52]:<52} {pages:>5} {pages / raw_s:>9.0f} "
            f"{pages / parse_s:>10.0f} {raw_s / parse_s:>6.2f}"
        )
    ratio = total_raw / total_parse
    print(
        f"{'TOTAL':<52} {total_pages:>5} {total_pages / total_raw:>9.0f} "
        f"{total_pages / total_parse:>10.0f} {ratio:>6.2f}"
    )
    print(f"goal ≥ {GOAL:.1f}× raw: {'met' if ratio >= GOAL else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
