"""Parse throughput: pages/s of ``parse()`` against raw PyMuPDF and the peers a user would pick.

Run from the repository root: ``.venv/bin/python bench/pipeline_parse.py [PDF ...]``
(defaults to the PDFs of /work/shared/corpus/docs). The peers, ``pdfminer.six`` and
``pypdfium2`` text extraction, are optional: ``.venv/bin/pip install -e '.[bench]'``; a
peer that is not installed is left out of the table.

Goal: parse ≥ 0.90× raw PyMuPDF ``page.get_text()`` over the corpus and no file below
0.80×. Parse does more than raw extraction (blocks with their rectangles in reading
order, the per-page OCR decision, running heads), so the ratio is its overhead.

Every engine runs on every file ``--repeat`` times, interleaved (ours, raw, peers, ours,
raw…) so that load from other processes falls on all of them alike; a file's time is the
median of its runs. Time is this process's CPU time (``time.process_time``; every engine
here is single-threaded), which a machine shared with other jobs disturbs far less than
the wall clock; ``--wall`` uses the wall clock instead. ``--runs`` repeats the whole
table and prints the median ratios.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion.pipeline.parse import ParseLimits, parse

CORPUS = Path("/work/shared/corpus/docs")
GOAL_TOTAL = 0.90
GOAL_FILE = 0.80
PDFMINER_LIMIT_S = 20.0

Extractor = Callable[[Path], int]
CLOCK: Callable[[], float] = time.process_time


def ours(path: Path) -> int:
    return parse(path, "pdf", ParseLimits()).page_count


def raw_pymupdf(path: Path) -> int:
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
        return int(doc.page_count)


def pdfminer_six(path: Path) -> int:
    from pdfminer.high_level import extract_pages

    # extract_pages is extract_text without the final join: the same layout analysis.
    return sum(1 for _ in extract_pages(path))


PDFMINER_CHILD = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from pipeline_parse import pdfminer_six
started = time.process_time()
pages = pdfminer_six(Path(sys.argv[1]))
print(pages, time.process_time() - started)
"""


def pdfminer_bounded(path: Path) -> tuple[int, float]:
    """pdfminer.six in a child process, CPU seconds; ``inf`` past ``PDFMINER_LIMIT_S`` of wall time.

    Its layout analysis is quadratic in the boxes of a page: on perpres' thousands of tiny
    OCR boxes it needs minutes, so the table shows a bound instead of waiting for it.
    """
    try:
        out = subprocess.run(
            [sys.executable, "-c", PDFMINER_CHILD, str(path), str(Path(__file__).parent)],
            capture_output=True,
            text=True,
            timeout=PDFMINER_LIMIT_S,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return 0, float("inf")
    pages, seconds = out.stdout.split()
    return int(pages), float(seconds)


def pypdfium2_text(path: Path) -> int:
    import pypdfium2

    pdf = pypdfium2.PdfDocument(path)
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            textpage.get_text_bounded()
            textpage.close()
            page.close()
        return len(pdf)
    finally:
        pdf.close()


ENGINES: dict[str, tuple[Extractor, str | None]] = {
    "ours": (ours, None),
    "pymupdf": (raw_pymupdf, None),
    "pdfminer.six": (pdfminer_six, "pdfminer"),
    "pypdfium2": (pypdfium2_text, "pypdfium2"),
}


def available_engines(slow_peers: bool) -> dict[str, Extractor]:
    engines = {}
    for name, (fn, module) in ENGINES.items():
        if module is not None and importlib.util.find_spec(module) is None:
            print(f"({name} not installed: pip install -e '.[bench]'; left out)")
            continue
        if name == "pdfminer.six" and not slow_peers:
            continue
        engines[name] = fn
    return engines


@dataclass
class FileRow:
    name: str
    pages: int = 0
    seconds: dict[str, list[float]] = field(default_factory=dict)

    def median(self, engine: str) -> float:
        return statistics.median(self.seconds[engine])


def time_file(path: Path, engines: dict[str, Extractor], repeat: int, peer_repeat: int) -> FileRow:
    row = FileRow(path.name)
    for engine in engines:
        row.seconds[engine] = []
    for engine, fn in engines.items():
        if engine != "pdfminer.six":  # it runs in a fresh child process each time
            fn(path)  # warm the OS file cache and lazy imports outside the timing
    order = list(engines.items())
    for index in range(max(repeat, peer_repeat)):
        # Each round starts one engine later, so no engine always runs right after the
        # same other one (whose caches and heap it would inherit).
        shift = index % len(order)
        for engine, fn in order[shift:] + order[:shift]:
            if engine not in ("ours", "pymupdf") and index >= peer_repeat:
                continue
            if engine in ("ours", "pymupdf") and index >= repeat:
                continue
            if engine == "pdfminer.six":
                row.seconds[engine].append(pdfminer_bounded(path)[1])
                continue
            started = CLOCK()
            row.pages = fn(path)
            row.seconds[engine].append(CLOCK() - started)
    return row


def _speed(pages: int, seconds: float) -> str:
    if seconds == float("inf"):  # stopped at the time limit
        return f"<{pages / PDFMINER_LIMIT_S:.1f}"
    return f"{pages / seconds:.0f}"


def _ratio(seconds: float, ours_s: float) -> str:
    if seconds == float("inf"):
        return f">{PDFMINER_LIMIT_S / ours_s:.0f}"
    return f"{seconds / ours_s:.2f}"


def print_table(rows: list[FileRow], engines: list[str]) -> dict[str, float]:
    """One table: pages/s per engine (ours first), then ours ÷ each other engine."""
    peers = [e for e in engines if e != "ours"]
    head = f"{'file':<40} {'pages':>5} " + " ".join(f"{e + ' p/s':>16}" for e in engines)
    head += " " + " ".join(f"{'×' + e:>14}" for e in peers)
    print(head)
    totals = {e: 0.0 for e in engines}
    pages = 0
    for row in rows:
        cells = [f"{_speed(row.pages, row.median(e)):>16}" for e in engines]
        ratios = [f"{_ratio(row.median(e), row.median('ours')):>14}" for e in peers]
        print(f"{row.name[:40]:<40} {row.pages:>5} " + " ".join(cells) + " " + " ".join(ratios))
        for e in engines:
            totals[e] += row.median(e)
        pages += row.pages
    cells = [f"{_speed(pages, totals[e]):>16}" for e in engines]
    total_ratios = {e: totals[e] / totals["ours"] for e in peers}
    print(
        f"{'TOTAL':<40} {pages:>5} "
        + " ".join(cells)
        + " "
        + " ".join(f"{_ratio(totals[e], totals['ours']):>14}" for e in peers)
    )
    return total_ratios


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=7, help="runs per file, ours and raw")
    parser.add_argument("--peer-repeat", type=int, default=3, help="runs per file, peers")
    parser.add_argument("--pdfminer-limit", type=float, default=20.0, help="wall-clock s per file")
    parser.add_argument("--runs", type=int, default=1, help="whole tables; medians at the end")
    parser.add_argument("--no-pdfminer", action="store_true", help="skip the slowest peer")
    parser.add_argument("--wall", action="store_true", help="wall clock, not CPU time")
    args = parser.parse_args()
    global CLOCK, PDFMINER_LIMIT_S
    PDFMINER_LIMIT_S = args.pdfminer_limit
    if args.wall:
        CLOCK = time.perf_counter
    pdfs = args.pdfs or sorted(CORPUS.glob("*.pdf"))
    if not pdfs:
        print("no PDFs found (corpus absent?)")
        return 0
    engines = available_engines(slow_peers=not args.no_pdfminer)
    print(
        f"pages per {'wall' if args.wall else 'CPU'} second (median of {args.repeat} "
        f"interleaved runs; peers {args.peer_repeat}); "
        "×engine = ours' speed ÷ that engine's (above 1: ours is faster)"
    )
    totals: list[dict[str, float]] = []
    worst: list[float] = []
    for run in range(args.runs):
        if args.runs > 1:
            print(f"-- run {run + 1}/{args.runs}")
        rows = [time_file(pdf, engines, args.repeat, args.peer_repeat) for pdf in pdfs]
        totals.append(print_table(rows, list(engines)))
        worst.append(min(row.median("pymupdf") / row.median("ours") for row in rows))
    total = statistics.median(t["pymupdf"] for t in totals)
    floor = statistics.median(worst)
    if args.runs > 1:
        for engine in totals[0]:
            values = ", ".join(f"{t[engine]:.2f}" for t in totals)
            median = statistics.median(t[engine] for t in totals)
            shown = f"{median:.2f}" if median != float("inf") else "above the bound shown"
            print(f"median ours ÷ {engine}: {shown} (runs: {values})")
    print(
        f"goal ≥ {GOAL_TOTAL:.2f}× raw PyMuPDF in total: {total:.2f} "
        f"{'met' if total >= GOAL_TOTAL else 'NOT met'}; "
        f"no file below {GOAL_FILE:.2f}×: worst {floor:.2f} "
        f"{'met' if floor >= GOAL_FILE else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
