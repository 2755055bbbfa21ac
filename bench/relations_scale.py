"""The relation graph over a whole public corpus (issue 21, item 5).

Run from the repository root::

    .venv/bin/python bench/relations_scale.py --corpus DIR_OR_GITDIR [--only uu|pp]
        [--limit N] [--sample 30 --seed S] [--workers N]

``--corpus`` is a checkout or a bare git directory of mblonyox/data-peraturan
(``uu/<year>/<number>.md``, ``pp/<year>/<number>.md``); the files are read with
``bench/consolidation.py``'s reader. Pure Python, no database.

Each file goes through the pipeline's own stages, as an upload of a ``.md`` would:
:func:`ingestion.pipeline.parse.parse` (format ``md``) and
:func:`ingestion.pipeline.chunk.chunk_document` with the settings' chunk budget (the
legal structure grammar of :mod:`ingestion.legal.structure` decides the heading paths).
The chunks become :class:`~ingestion.legal.relations.SectionText` (heading path, text,
first page) exactly as ``ingestion.relations.graph.sections_of`` reads them back from the
database. The regulation's identity is
:func:`ingestion.legal.identity.document_identity` over the file's jenis/nomor/tahun (the
path, as an ``import_corpus`` manifest would give them), its printed heading and its
title; the printed heading alone (:func:`~ingestion.legal.identity.heading_ref`) is
compared with the path and the disagreements counted. Relations are
:func:`~ingestion.legal.relations.extract_relations`, as ``graph._store`` calls it.

A target *resolves* when its match key (jenis|nomor|tahun) is a regulation of the corpus
(only UU and PP are there, so a Perpres or a Staatsblad target never resolves). A
regulation is *repealed* when a repeal, from another regulation of the corpus, names it.
The extractor keeps partial repeals (``… sepanjang …``, ``Pasal 5 …``) out of ``repeals``
altogether, so there is no third kind to count.

Amendment pairs: every regulation whose printed title says ``Perubahan … atas <X>``; the
pair is *linked* when the regulation has an ``amends`` relation to X and X is in the
corpus. The share is printed over the pairs whose X is in the corpus (goal ≥ 0.95), and
every other pair is listed by cause.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402

from ingestion.legal.citation import RegulationRef, find_regulations  # noqa: E402
from ingestion.legal.identity import (  # noqa: E402
    document_identity,
    heading_of,
    heading_ref,
    opening_of,
)
from ingestion.legal.relations import (  # noqa: E402
    AMENDS,
    REPEALS,
    SectionText,
    extract_relations,
    match_key,
)
from ingestion.pipeline.chunk import chunk_document  # noqa: E402
from ingestion.pipeline.parse import ParseLimits, parse  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from consolidation import _pair_files  # noqa: E402

_JENIS = {"uu": "Undang-Undang", "pp": "Peraturan Pemerintah"}
_AMENDMENT_TITLE_RE = re.compile(
    r"\bperubahan\b(?:\s+\w+){0,2}?\s+atas\s+(?P<rest>.*)$", re.IGNORECASE
)
SENTENCE_CHARS = 320


@dataclass(frozen=True, slots=True)
class Relation:
    kind: str
    key: str
    citation: str
    evidence: str
    span: tuple[int, int]
    part: str


@dataclass(slots=True)
class Read:
    """One regulation as the bench saw it."""

    name: str
    key: str  # match key from document_identity
    citation: str
    heading_agrees: bool | None  # the printed heading's reading vs. the path (None: none)
    title: str
    amended_in_title: str | None  # match key of X in "Perubahan … atas X", if readable
    title_says_amendment: bool
    relations: list[Relation] = field(default_factory=list)
    error: str = ""


def _sections(text: str) -> list[SectionText]:
    with tempfile.NamedTemporaryFile("w", suffix=".md", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        parsed = parse(Path(handle.name), "md", ParseLimits())
    drafts = chunk_document(
        parsed.blocks,
        budget_tokens=int(settings.CHUNK_TOKEN_BUDGET),
        overlap_tokens=int(settings.CHUNK_OVERLAP_TOKENS),
    )
    return [SectionText(d.heading_path_text, d.text, d.page_from) for d in drafts]


def _path_ref(name: str) -> RegulationRef:
    return RegulationRef(_JENIS[name[:2]], Path(name).stem, name[3:7])


def read_one(item: tuple[str, str]) -> Read:
    name, text = item
    path_ref = _path_ref(name)
    try:
        sections = _sections(text)
        opening = opening_of((s.path, s.text) for s in sections)
        meta = {"jenis": path_ref.jenis, "nomor": path_ref.nomor, "tahun": path_ref.tahun}
        own = document_identity(Path(name).name, meta, opening)
        printed = heading_ref(opening)
        agrees = None if printed is None else printed.key[:3] == path_ref.key[:3]
        title = heading_of(opening).text
        amended, says = _title_target(title)
        found = extract_relations(Path(name).name, sections, own)
    except Exception as error:  # a file that crashes a stage fails only itself
        return Read(
            name,
            match_key(path_ref),
            path_ref.short or name,
            None,
            "",
            None,
            False,
            error=f"{type(error).__name__}: {error}"[:200],
        )
    relations = [
        Relation(r.kind, match_key(r.target), r.citation, r.evidence, r.span, r.part) for r in found
    ]
    key = match_key(own) if own is not None else match_key(path_ref)
    citation = (own.short if own else None) or name
    return Read(name, key, citation, agrees, title, amended, says, relations)


def _title_target(title: str) -> tuple[str | None, bool]:
    """(match key of X, whether the title says so) for ``Perubahan … atas X``."""
    match = _AMENDMENT_TITLE_RE.search(" ".join(title.split()))
    if match is None:
        return None, False
    refs = find_regulations(match.group("rest"))
    if not refs:
        return None, True
    ref, (start, _end) = refs[0]
    if match.group("rest")[:start].strip() or not (ref.nomor and ref.tahun):
        return None, True
    return match_key(ref), True


def _files(corpus: Path, only: str | None, limit: int | None) -> Iterator[tuple[str, str]]:
    count = 0
    for name, text in _pair_files(corpus):
        if only and not name.startswith(f"{only}/"):
            continue
        yield name, text
        count += 1
        if limit and count >= limit:
            return


def _trim(relation: Relation) -> str:
    """The sentence around the target's mention, at most SENTENCE_CHARS."""
    text = relation.evidence
    start, end = relation.span
    half = SENTENCE_CHARS // 2
    lo = max(0, start - half)
    hi = min(len(text), max(end + half, lo + SENTENCE_CHARS))
    return ("…" if lo else "") + text[lo:hi] + ("…" if hi < len(text) else "")


def report(reads: list[Read], sample: int, seed: int, seconds: float) -> None:
    keys = {r.key for r in reads if not r.error}
    errors = [r for r in reads if r.error]
    print(f"regulations read: {len(reads)} in {seconds:.1f} s; failed {len(errors)}")
    for read in errors[:10]:
        print(f"  failed {read.name}: {read.error}")
    agree = Counter(r.heading_agrees for r in reads if not r.error)
    print(
        f"identity: printed heading agrees with the path {agree[True]}, disagrees "
        f"{agree[False]}, no heading read {agree[None]}"
    )
    all_rel = [(r, rel) for r in reads for rel in r.relations]
    print()
    print(f"{'kind':8} {'found':>6} {'regs':>5} {'resolve':>8} {'share':>6}  (by part)")
    for kind in (AMENDS, REPEALS):
        rows = [(r, rel) for r, rel in all_rel if rel.kind == kind]
        resolved = [x for x in rows if x[1].key in keys]
        sources = len({r.name for r, _ in rows})
        share = len(resolved) / len(rows) if rows else 0.0
        parts = Counter(rel.part for _, rel in rows)
        print(
            f"{kind:8} {len(rows):>6} {sources:>5} {len(resolved):>8} {share:>6.3f}  "
            + ", ".join(f"{p} {n}" for p, n in parts.most_common())
        )
    repealers: dict[str, set[str]] = {}
    for read, rel in all_rel:
        if rel.kind == REPEALS and rel.key in keys and rel.key != read.key:
            repealers.setdefault(rel.key, set()).add(read.citation)
    print(f"regulations repealed (a repeal from the corpus names them): {len(repealers)}")
    print("  partial repeals: not a kind of their own (the extractor drops them)")
    _pairs(reads, keys)
    _sample(all_rel, sample, seed)


def _pairs(reads: list[Read], keys: set[str]) -> None:
    pairs = [r for r in reads if r.title_says_amendment]
    causes: Counter[str] = Counter()
    listed: list[tuple[str, str]] = []
    linked = in_corpus = 0
    for read in pairs:
        amends = {rel.key for rel in read.relations if rel.kind == AMENDS}
        if read.amended_in_title is None:
            cause = "title names no readable regulation after 'atas'"
        elif read.amended_in_title not in keys:
            cause = "target not in the corpus"
        else:
            in_corpus += 1
            if read.amended_in_title in amends:
                linked += 1
                continue
            cause = "amends to another target" if amends else "no amends relation extracted"
        causes[cause] += 1
        listed.append((cause, f"{read.citation}: {read.title[:110]}"))
    share = linked / in_corpus if in_corpus else 0.0
    print()
    print(
        f"amendment pairs ('Perubahan … atas' in the title): {len(pairs)}; target in the "
        f"corpus {in_corpus}; both sides linked {linked} = {share:.3f} (goal ≥ 0.95)"
    )
    for cause, count in causes.most_common():
        print(f"  {count:>5}  {cause}")
        for _c, line in [x for x in listed if x[0] == cause][:12]:
            print(f"         {line}")


def _sample(all_rel: list[tuple[Read, Relation]], size: int, seed: int) -> None:
    repeals = [(r, rel) for r, rel in all_rel if rel.kind == REPEALS]
    chosen = random.Random(seed).sample(repeals, min(size, len(repeals)))
    print()
    print(f"sample of {len(chosen)} repeals (seed {seed}) for hand-checking:")
    for index, (read, rel) in enumerate(chosen, 1):
        print(f"{index:>3}. {read.citation} ({read.name}) repeals {rel.citation} [{rel.part}]")
        print(f"     {_trim(rel)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--only", choices=("uu", "pp"))
    parser.add_argument("--limit", type=int)
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    logging.disable(logging.INFO)  # the pipeline logs every parse and chunk
    started = time.perf_counter()
    # Read every file first: a worker forked while git cat-file runs would hold its pipe.
    files = list(_files(args.corpus, args.only, args.limit))
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            reads = list(pool.map(read_one, files, chunksize=8))
    else:
        reads = [read_one(item) for item in files]
    report(reads, args.sample, args.seed, time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
