"""How often a regulation is known by its own text alone, and what reading it costs.

Run from the repository root: ``.venv/bin/python bench/identity.py [--sample 400]``.

Every regulation of the development corpus (and, when ``fetch`` has brought
``mblonyox/data-peraturan`` to this machine, a seeded sample of its UU and PP) is parsed
and chunked by the pipeline's own stages and identified by
:func:`ingestion.legal.identity.document_identity` as if it had been uploaded as
``arsip.txt``: no title, no metadata. Expected: the regulation its file name (or the data
set's path ``uu/<year>/<n>.md``) names, compared on jenis, nomor and tahun. It prints, per
source, the share read right, the share read as another regulation (the figure that must
stay near 0) and none, and the milliseconds per heading.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")

import django

django.setup()

from ingestion.legal.citation import parse_regulation  # noqa: E402
from ingestion.legal.identity import document_identity, opening_of  # noqa: E402
from ingestion.pipeline.base import Block  # noqa: E402
from ingestion.pipeline.chunk import chunk_document  # noqa: E402
from ingestion.pipeline.parse import ParseLimits, parse  # noqa: E402

CORPUS = Path("/work/shared/corpus")
MBLONYOX = Path("/work/.mirror/mblonyox+data-peraturan/repo")
ABBR = {"uu": "UU", "pp": "PP"}


def _opening(blocks: list[Block]) -> str:
    drafts = chunk_document(blocks, budget_tokens=350, overlap_tokens=40)
    return opening_of((d.heading_path_text, d.text) for d in drafts)


def dev_corpus() -> Iterator[tuple[str, str, str]]:
    """(name, expected short citation, opening) of each corpus regulation with text."""
    files = [*CORPUS.glob("amendments/uu_*.md"), *CORPUS.glob("galqa/docs/*.txt")]
    files += [*CORPUS.glob("docs/*.pdf"), *CORPUS.glob("docs/*.md")]
    for path in sorted(files):
        expected = parse_regulation(path.stem)
        if expected is None or expected.short is None:
            continue
        blocks = parse(path, path.suffix.lstrip("."), ParseLimits()).blocks
        yield path.name, expected.short, _opening(blocks)


def data_peraturan(sample: int, seed: int) -> Iterator[tuple[str, str, str]]:
    listing = subprocess.run(
        ["git", "-C", str(MBLONYOX), "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    paths = [p for p in listing if p.endswith(".md") and p.split("/")[0] in ABBR]
    random.seed(seed)
    for path in random.sample(paths, min(sample, len(paths))):
        kind, year, number = path[:-3].split("/")
        text = subprocess.run(
            ["git", "-C", str(MBLONYOX), "show", f"HEAD:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        yield path, f"{ABBR[kind]} {int(number)}/{year}", _opening([Block(text[:20000])])


def measure(label: str, items: Iterator[tuple[str, str, str]], show: int) -> None:
    right = wrong = none = 0
    seconds = 0.0
    misread: list[str] = []
    for name, expected, opening in items:
        started = time.perf_counter()
        ref = document_identity("arsip.txt", {}, opening)
        seconds += time.perf_counter() - started
        got = ref.short if ref else None
        want = parse_regulation(expected)
        # Right when jenis, nomor and tahun are: an abstract that never prints its region
        # is still that regulation.
        if ref is not None and want is not None and ref.key[:3] == want.key[:3]:
            right += 1
        elif got is None:
            none += 1
        else:
            wrong += 1
            misread.append(f"  {name}: read {got}, expected {expected}")
    total = right + wrong + none
    if not total:
        print(f"{label:28} (absent)")
        return
    print(
        f"{label:28} n={total:5}  right {right / total:.3f}  other regulation "
        f"{wrong / total:.3f}  none {none / total:.3f}  {seconds / total * 1000:.1f} ms/heading"
    )
    for line in misread[:show]:
        print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=400, help="data-peraturan files read")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=10, help="misreadings listed")
    args = parser.parse_args()
    if CORPUS.is_dir():
        measure("dev corpus", dev_corpus(), args.show)
    if MBLONYOX.is_dir():
        measure("mblonyox/data-peraturan", data_peraturan(args.sample, args.seed), args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
