"""Retrieval quality and latency on the GALQA legal benchmark (15 PP, 306 questions).

Run from the repository root: ``.venv/bin/python bench/retrieval.py``. It starts its own
embedded Postgres in a temp dir (or uses ``--database-url``), migrates, ingests the
regulations through the real pipeline (``ingestion.pipeline.runner.ingest`` with the
default local embedder and the file as an admin upload would be stored), then asks every
question of ``dev_questions.csv`` and prints Recall@1/5/10, MRR@10 and p50/p95 latency for
hybrid, lexical-only, dense-only and a plain BM25 (rank-bm25) over the same chunks.

A hit is a result from the gold ``Document`` whose heading path contains
``Pasal <Article>``. Goals: hybrid Recall@5 >= 0.85 and above BM25; p95 < 50 ms.
Fusion knobs can be overridden (``--rrf-k`` …) to compare settings on the same index.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GALQA = Path("/work/shared/corpus/galqa")
GOAL_RECALL_5 = 0.85
GOAL_P95_MS = 50.0
_FILE_RE = re.compile(r"^pp_(?P<nomor>\d+)_(?P<tahun>\d{4})\.txt$")


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    document: str
    article: str
    ayat: str = ""  # gold Subsection
    letter: str = ""  # gold Letter: a huruf ("g") or, in Pasal 1 definitions, an angka ("3")


@dataclass(frozen=True, slots=True)
class Retrieved:
    file_name: str
    heading_path: str
    unit: dict[str, str | None] | None = None


@dataclass(slots=True)
class Scores:
    name: str
    ranks: list[int | None] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    db_ms: list[float] = field(default_factory=list)  # latency minus the query embedding
    ayat_hits: list[bool] = field(default_factory=list)  # questions whose gold has an ayat
    huruf_hits: list[bool] = field(default_factory=list)  # questions whose gold has a letter

    def ayat_accuracy(self) -> float:
        return sum(self.ayat_hits) / len(self.ayat_hits) if self.ayat_hits else 0.0

    def huruf_accuracy(self) -> float:
        return sum(self.huruf_hits) / len(self.huruf_hits) if self.huruf_hits else 0.0

    def recall(self, k: int) -> float:
        return sum(1 for r in self.ranks if r is not None and r <= k) / len(self.ranks)

    def mrr(self) -> float:
        return sum(1.0 / r for r in self.ranks if r is not None) / len(self.ranks)

    def percentile(self, p: float, values: list[float] | None = None) -> float:
        ordered = sorted(self.latencies_ms if values is None else values)
        return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def load_questions(path: Path) -> list[Question]:
    with path.open(encoding="utf-8") as handle:
        return [
            Question(
                row["Question"],
                row["Document"],
                row["Article"].strip(),
                row["Subsection"].strip(),
                row["Letter"].strip(),
            )
            for row in csv.DictReader(handle)
        ]


def first_hit_rank(question: Question, results: Sequence[Retrieved]) -> int | None:
    pasal = re.compile(rf"\bPasal {re.escape(question.article)}\b")
    for rank, result in enumerate(results, start=1):
        if result.file_name == question.document and pasal.search(result.heading_path):
            return rank
    return None


def unit_matches(question: Question, top: Retrieved | None) -> tuple[bool, bool]:
    """(ayat right, ayat and letter right) for the top result's unit.

    The unit must be in the gold document and Pasal; the ayat must equal the gold ayat (or be
    absent when the gold has none); the letter is the unit's huruf, or its angka for a digit.
    """
    if top is None or top.unit is None or top.file_name != question.document:
        return False, False
    unit = top.unit
    if unit.get("pasal") != question.article:
        return False, False
    ayat_ok = (unit.get("ayat") or "") == question.ayat
    key = "angka" if question.letter.isdigit() else "huruf"
    return ayat_ok, ayat_ok and (unit.get(key) or "") == question.letter


def evaluate(
    name: str, questions: Sequence[Question], run: Callable[[str], list[Retrieved]]
) -> Scores:
    for question in questions[:5]:  # warm caches and the model before timing
        run(question.text)
    scores = Scores(name)
    for question in questions:
        embedded_before = sum(EMBEDDER.timings_ms) if EMBEDDER else 0.0
        started = time.perf_counter()
        results = run(question.text)
        elapsed = (time.perf_counter() - started) * 1000
        scores.latencies_ms.append(elapsed)
        embed_ms = (sum(EMBEDDER.timings_ms) if EMBEDDER else 0.0) - embedded_before
        scores.db_ms.append(elapsed - embed_ms)
        scores.ranks.append(first_hit_rank(question, results))
        ayat_ok, letter_ok = unit_matches(question, results[0] if results else None)
        if question.ayat:
            scores.ayat_hits.append(ayat_ok)
        if question.letter:
            scores.huruf_hits.append(letter_ok)
    return scores


def setup_django(database_url: str | None, work: Path) -> None:
    if database_url is None:
        from scripts.services import start_postgres

        postgres = start_postgres()
        import atexit

        atexit.register(postgres.stop)
        database_url = postgres.url
    os.environ["DATABASE_URL"] = database_url
    os.environ["OBJECT_STORAGE_URL"] = (work / "storage").as_uri()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def ingest_corpus(docs_dir: Path) -> dict[str, str]:
    """Ingest every regulation once; returns document id → file name."""
    from ingestion.models import Document
    from ingestion.pipeline.runner import IngestRequest, ingest
    from ingestion.storage import get_storage

    storage = get_storage()
    started = time.perf_counter()
    for path in sorted(docs_dir.glob("*.txt")):
        key = f"bench/galqa/{path.name}"
        if Document.objects.filter(file_name=path.name).exists():
            continue
        with path.open("rb") as handle:
            storage.put(key, handle)
        match = _FILE_RE.match(path.name)
        meta = {"jenis": "Peraturan Pemerintah"}
        if match:
            meta |= {"nomor": match["nomor"], "tahun": match["tahun"]}
        request = IngestRequest(
            job=None,
            storage_key=key,
            format="txt",
            parser_file_name=path.name,
            mime_type="text/plain",
            title=path.name,
            source_type="upload",
            source_key=f"galqa-{path.stem}",
            source_version="1",
            source_metadata=meta,
        )
        result = ingest(request)
        print(f"  {path.name}: {result.outcome} ({result.indexed_count} chunks)")
    print(f"ingest: {time.perf_counter() - started:.1f}s")
    return {str(d.id): d.file_name for d in Document.objects.all()}


class TimedEmbedder:
    """The pipeline's embedder, timing each query embedding (the model's share of latency)."""

    def __init__(self, cache_path: Path | None = None) -> None:
        from ingestion.pipeline.embed import get_embedder

        self.inner = get_embedder()
        self.model_id = self.inner.model_id
        self.timings_ms: list[float] = []
        self.cache_path = cache_path
        self.cache: dict[str, list[float]] = {}
        if cache_path is not None and cache_path.exists():
            self.cache = json.loads(cache_path.read_text())

    def embed_query(self, text: str, *, interactive: bool = True) -> list[float]:
        started = time.perf_counter()
        try:
            if self.cache_path is not None and text in self.cache:
                return self.cache[text]
            vector = self.inner.embed_query(text, interactive=interactive)
            if self.cache_path is not None:
                self.cache[text] = vector
            return vector
        finally:
            self.timings_ms.append((time.perf_counter() - started) * 1000)

    def save(self) -> None:
        if self.cache_path is not None:
            self.cache_path.write_text(json.dumps(self.cache))


EMBEDDER: TimedEmbedder | None = None


def hybrid_runner(
    mode: str, files: dict[str, str], tuning: object
) -> Callable[[str], list[Retrieved]]:
    from ingestion.search.service import SearchMode, SearchQuery, search

    search_mode = SearchMode(mode)

    def run(text: str) -> list[Retrieved]:
        # The corpus holds a repealed regulation (PP 59/2021 repeals PP 4/2015) whose
        # questions count like any other: relevance alone, status set aside.
        query = SearchQuery(
            text=text, limit=10, mode=search_mode, include_repealed=True, in_force_first=False
        )
        response = search(query, tuning=tuning, embedder=EMBEDDER)  # type: ignore[arg-type]
        return [Retrieved(files[h.document_id], h.heading_path, h.unit) for h in response.results]

    return run


def bm25_runner(files: dict[str, str]) -> Callable[[str], list[Retrieved]]:
    from rank_bm25 import BM25Okapi

    from ingestion.models import Chunk

    rows = list(
        Chunk.objects.filter(indexed=True).values_list("document_id", "heading_path", "text")
    )
    tokenize = re.compile(r"\w+", re.UNICODE).findall
    corpus = [tokenize(f"{heading} {text}".lower()) for _doc, heading, text in rows]
    bm25 = BM25Okapi(corpus)

    def run(text: str) -> list[Retrieved]:
        scores = bm25.get_scores(tokenize(text.lower()))
        best = sorted(range(len(rows)), key=lambda i: -scores[i])[:10]
        return [Retrieved(files[str(rows[i][0])], rows[i][1]) for i in best]

    return run


def bm25_unit_runner(files: dict[str, str]) -> Callable[[str], list[Retrieved]]:
    """Plain BM25 (rank-bm25) over the legal units themselves: the baseline at the question's
    granularity (the published reference retrieves ayat/huruf passages with BM25)."""
    from rank_bm25 import BM25Okapi

    from ingestion.models import LegalUnit

    rows = list(
        LegalUnit.objects.filter(chunk__indexed=True, depth__gt=0).values_list(
            "document_id", "chunk__heading_path", "text", "pasal", "ayat", "huruf", "angka"
        )
    )
    tokenize = re.compile(r"\w+", re.UNICODE).findall
    bm25 = BM25Okapi([tokenize(text.lower()) for _d, _h, text, *_ in rows])

    def run(text: str) -> list[Retrieved]:
        scores = bm25.get_scores(tokenize(text.lower()))
        best = sorted(range(len(rows)), key=lambda i: -scores[i])[:10]
        out = []
        for i in best:
            document, heading, _text, pasal, ayat, huruf, angka = rows[i]
            unit = {"pasal": pasal, "ayat": ayat or None, "huruf": huruf or None}
            out.append(Retrieved(files[str(document)], heading, unit | {"angka": angka or None}))
        return out

    return run


REFERENCE_FORMS = (
    "Pasal {unit} PP {nomor}/{tahun}",
    "pp {nomor} tahun {tahun} pasal {unit_plain}",
    "Peraturan Pemerintah Nomor {nomor} Tahun {tahun} Pasal {unit}",
    "PP No. {nomor} Tahun {tahun} pasal {unit_plain}",
)


def reference_query(question: Question, index: int) -> str | None:
    """A query naming the question's gold unit, in one of the common spellings (rotating)."""
    match = _FILE_RE.match(question.document)
    if match is None:
        return None
    unit, plain = question.article, question.article
    if question.ayat:
        unit += f" ayat ({question.ayat})"
        plain += f" ayat {question.ayat}"
    if question.letter:
        kind = "angka" if question.letter.isdigit() else "huruf"
        unit += f" {kind} {question.letter}"
        plain += f" {kind} {question.letter}"
    form = REFERENCE_FORMS[index % len(REFERENCE_FORMS)]
    return form.format(unit=unit, unit_plain=plain, nomor=match["nomor"], tahun=match["tahun"])


def divided_pasals() -> set[tuple[str, str]]:
    """(file name, Pasal) of every Pasal that has ayat in the index."""
    from ingestion.models import LegalUnit

    rows = LegalUnit.objects.filter(penjelasan=False).exclude(ayat="")
    return set(rows.values_list("document__file_name", "pasal").distinct())


def gold_ayat(question: Question, divided: set[tuple[str, str]] | None) -> str:
    """GALQA labels the lone paragraph of an undivided Pasal ``Subsection 1``: that gold
    is the Pasal itself (no ayat) when the document's Pasal has no ayat at all."""
    undivided = divided is not None and (question.document, question.article) not in divided
    return "" if question.ayat == "1" and undivided else question.ayat


def reference_exact(
    question: Question, top: Retrieved | None, divided: set[tuple[str, str]] | None = None
) -> bool:
    """The top result is exactly the gold unit (its Pasal, ayat and huruf or angka)."""
    if top is None or top.unit is None or top.file_name != question.document:
        return False
    key = "angka" if question.letter.isdigit() else "huruf"
    other = "huruf" if key == "angka" else "angka"
    return (
        top.unit.get("pasal") == question.article
        and (top.unit.get("ayat") or "") == gold_ayat(question, divided)
        and (top.unit.get(key) or "") == question.letter
        and not top.unit.get(other)
    )


def evaluate_references(
    questions: Sequence[Question], run: Callable[[str], list[Retrieved]]
) -> None:
    """Reference queries built from every gold unit: is that exact unit the first result?"""
    exact = strict = 0
    total = 0
    latencies: list[float] = []
    divided = divided_pasals()
    for index, question in enumerate(questions):
        text = reference_query(question, index)
        if text is None:
            continue
        started = time.perf_counter()
        results = run(text)
        latencies.append((time.perf_counter() - started) * 1000)
        total += 1
        exact += reference_exact(question, results[0] if results else None, divided)
        strict += reference_exact(question, results[0] if results else None)
    ordered = sorted(latencies) or [0.0]
    p95 = ordered[round(0.95 * (len(ordered) - 1))]
    share = exact / total if total else 0.0
    print(
        f"\nreference queries → exact unit first: {exact}/{total} = {share:.3f} (p95 {p95:.1f} ms)"
    )
    print(f"  (gold ayat (1) of an undivided Pasal taken literally: {strict}/{total})")


def print_embed_share() -> None:
    if EMBEDDER is None or not EMBEDDER.timings_ms:
        return
    ordered = sorted(EMBEDDER.timings_ms)
    p50 = ordered[len(ordered) // 2]
    p95 = ordered[round(0.95 * (len(ordered) - 1))]
    print(f"query embedding (included above): p50 {p50:.1f} ms, p95 {p95:.1f} ms")


def print_table(all_scores: Sequence[Scores]) -> None:
    header = f"{'method':<10} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6} {'ayat@1':>7}"
    print(f"\n{header} {'huruf@1':>7} {'p50 ms':>8} {'p95 ms':>8} {'p95 excl. embed':>16}")
    for s in all_scores:
        print(
            f"{s.name:<10} {s.recall(1):6.3f} {s.recall(5):6.3f} {s.recall(10):6.3f} "
            f"{s.mrr():6.3f} {s.ayat_accuracy():7.3f} {s.huruf_accuracy():7.3f} "
            f"{s.percentile(0.5):8.1f} {s.percentile(0.95):8.1f} "
            f"{s.percentile(0.95, s.db_ms):16.1f}"
        )
    print("R@k/MRR: Pasal level. ayat@1 / huruf@1: the top result's unit has the gold Pasal and")
    print("ayat (and huruf/angka), over questions whose gold has one.")


# --- leave-regulations-out cross-validation -------------------------------------------------

FOLDS = 5


def regulation_folds(questions: Sequence[Question], folds: int = FOLDS) -> list[list[str]]:
    """The gold regulations dealt into ``folds`` groups of about equal question counts
    (largest first, each to the lightest fold): a fold holds whole regulations, so its
    questions are about regulations no other fold asks about."""
    counts: dict[str, int] = {}
    for question in questions:
        counts[question.document] = counts.get(question.document, 0) + 1
    groups: list[list[str]] = [[] for _ in range(folds)]
    weights = [0] * folds
    for document in sorted(counts, key=lambda d: (-counts[d], d)):
        lightest = min(range(folds), key=lambda i: (weights[i], i))
        groups[lightest].append(document)
        weights[lightest] += counts[document]
    return groups


def fold_scores(
    scores: Scores, questions: Sequence[Question], groups: Sequence[Sequence[str]]
) -> list[tuple[float, float, float]]:
    """(R@1, R@5, MRR) of each fold's questions, from one evaluation over all of them."""
    out = []
    for group in groups:
        ranks = [r for q, r in zip(questions, scores.ranks, strict=True) if q.document in group]
        fold = Scores(scores.name, ranks=ranks)
        out.append((fold.recall(1), fold.recall(5), fold.mrr()))
    return out


def _mean_spread(values: Sequence[float]) -> str:
    import statistics

    spread = statistics.pstdev(values) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):.3f} ± {spread:.3f}"


def print_folds(
    scores: Scores,
    questions: Sequence[Question],
    baseline: Scores | None = None,
    folds: int = FOLDS,
) -> bool:
    """Each fold's R@1/R@5/MRR, their mean ± spread, and with a baseline the per-fold gain.
    Returns whether the change gains on every fold (MRR), or True without a baseline."""
    groups = regulation_folds(questions, folds)
    ours = fold_scores(scores, questions, groups)
    base = fold_scores(baseline, questions, groups) if baseline is not None else None
    print(f"\nleave-regulations-out, {folds} folds ({scores.name}):")
    print(f"{'fold':<5} {'regs':>4} {'qs':>4} {'R@1':>6} {'R@5':>6} {'MRR':>6}", end="")
    print("   ΔR@1   ΔR@5   ΔMRR" if base else "")
    every = True
    for index, (group, row) in enumerate(zip(groups, ours, strict=True)):
        asked = sum(1 for q in questions if q.document in group)
        line = (
            f"{index + 1:<5} {len(group):>4} {asked:>4} {row[0]:6.3f} {row[1]:6.3f} {row[2]:6.3f}"
        )
        if base:
            delta = [a - b for a, b in zip(row, base[index], strict=True)]
            every &= delta[2] > 0
            line += "".join(f" {d:+6.3f}" for d in delta)
        print(line)
    for name, column in (("R@1", 0), ("R@5", 1), ("MRR", 2)):
        print(f"  {name} mean ± spread: {_mean_spread([row[column] for row in ours])}")
    if base:
        print(f"  gains on every fold (MRR): {'yes' if every else 'NO'}")
    return every


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", help="reuse this database (ingests only what is missing)")
    parser.add_argument("--galqa", type=Path, default=GALQA)
    parser.add_argument("--rrf-k", type=int)
    parser.add_argument("--dense-weight", type=float)
    parser.add_argument("--lexical-weight", type=float)
    parser.add_argument("--title-weight", type=float)
    parser.add_argument("--candidates", type=int)
    parser.add_argument("--unit-weight", type=float)
    parser.add_argument("--unit-dense-weight", type=float)
    parser.add_argument("--rescore-weight", type=float)
    parser.add_argument("--coverage-weight", type=float)
    parser.add_argument(
        "--only",
        choices=["hybrid", "lexical", "dense", "bm25", "bm25-unit"],
        action="append",
    )
    parser.add_argument(
        "--compare-default",
        action="store_true",
        help="also run the default tuning and print each fold's gain of the given overrides",
    )
    parser.add_argument(
        "--no-named-scope",
        action="store_true",
        help="turn off the named-regulation scope (the query naming its regulation)",
    )
    parser.add_argument(
        "--compare-named-scope",
        action="store_true",
        help="baseline without the named-regulation scope: each fold's gain of having it",
    )
    parser.add_argument(
        "--query-cache",
        type=Path,
        help="JSON file of query vectors, read and extended: repeated runs skip the model "
        "(latency then excludes query embedding)",
    )
    return parser.parse_args()


def tuning_from(args: argparse.Namespace) -> object:
    from dataclasses import replace

    from ingestion.search.service import SearchTuning

    tuning = SearchTuning.from_settings()
    overrides = {
        "rrf_k": args.rrf_k,
        "dense_weight": args.dense_weight,
        "lexical_weight": args.lexical_weight,
        "title_weight": args.title_weight,
        "candidates": args.candidates,
        "unit_weight": args.unit_weight,
        "unit_dense_weight": args.unit_dense_weight,
        "rescore_weight": args.rescore_weight,
        "coverage_weight": args.coverage_weight,
        "named_scope": False if args.no_named_scope else None,
    }
    return replace(tuning, **{k: v for k, v in overrides.items() if v is not None})


def _defaults(args: argparse.Namespace) -> object:
    """The settings' tuning, none of the command line's overrides."""
    blank = argparse.Namespace(**{k: None for k in vars(args)})
    blank.no_named_scope = False
    return tuning_from(blank)


def main() -> int:
    args = parse_args()
    if not (args.galqa / "dev_questions.csv").exists():
        print(f"GALQA corpus not found under {args.galqa}; nothing to measure")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp:
        setup_django(args.database_url, Path(tmp))
        files = ingest_corpus(args.galqa / "docs")
        questions = load_questions(args.galqa / "dev_questions.csv")
        tuning = tuning_from(args)
        global EMBEDDER
        EMBEDDER = TimedEmbedder(args.query_cache)
        print(f"{len(questions)} questions, {len(files)} documents, tuning {tuning}")
        methods = args.only or ["hybrid", "lexical", "dense", "bm25", "bm25-unit"]
        results = []
        for method in methods:
            if method == "bm25":
                run = bm25_runner(files)
            elif method == "bm25-unit":
                run = bm25_unit_runner(files)
            else:
                run = hybrid_runner(method, files, tuning)
            results.append(evaluate(method, questions, run))
        hybrid_scores = next((s for s in results if s.name == "hybrid"), None)
        if hybrid_scores is not None:
            baseline = None
            if args.compare_default or args.compare_named_scope:
                base_tuning = _defaults(args) if args.compare_default else tuning
                if args.compare_named_scope:
                    base_tuning = replace(base_tuning, named_scope=False)  # type: ignore[type-var]
                base = hybrid_runner("hybrid", files, base_tuning)
                baseline = evaluate("baseline", questions, base)
            print_folds(hybrid_scores, questions, baseline)
            evaluate_references(questions, hybrid_runner("hybrid", files, tuning))
        EMBEDDER.save()
        print_table(results)
        print_embed_share()
        hybrid = next((s for s in results if s.name == "hybrid"), None)
        if hybrid is not None:
            ok = hybrid.recall(5) >= GOAL_RECALL_5 and hybrid.percentile(0.95) < GOAL_P95_MS
            verdict = "met" if ok else "NOT met"
            print(f"\ngoals (R@5 >= {GOAL_RECALL_5}, p95 < {GOAL_P95_MS} ms): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
