"""Retrieval quality and latency: the GALQA benchmark (15 PP, 306 questions) beside a set
of questions written by another author (``outside_qa``: 40 questions on PP 5/2021,
PP 35/2021 and PP 51/2023, on OCR-damaged texts).

Run from the repository root: ``.venv/bin/python bench/retrieval.py``. It starts its own
embedded Postgres in a temp dir (or uses ``--database-url``, importing only what is
missing), migrates, and imports both corpora the way an operator does
(``manage.py import_corpus --manifest``: the upload's pipeline, the default local
embedder), then asks every question through the search service and prints:

- GALQA dev, 5 folds by regulation: each fold's questions are ranked by a fusion model
  trained on the other folds' questions only (no question sees a model that saw it);
  Recall@1/5/10, MRR, the unit figures and p50/p95 latency, beside lexical-only,
  dense-only and plain BM25 (rank-bm25) over the same chunks. GALQA questions are asked of
  the 15 GALQA regulations, as they always were;
- the outside set with the shipped model (trained on all GALQA dev questions, never on
  this set), asked of the whole corpus: a hit cites the gold Pasal of the gold regulation,
  or of the regulation it amends (PP 51/2023 amends PP 36/2021);
- reference queries built from every GALQA gold unit: is that exact unit first?

``--train-fusion`` also writes the shipped model (``ingestion/search/fusion_model.json``,
or ``--model-out``) from all GALQA dev questions, after printing the fold figures of each
model kind and of the model without each signal (docs/decisions.md).
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
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GALQA = Path("/work/shared/corpus/galqa")
OUTSIDE = Path("/work/shared/corpus/outside_qa")
GOAL_RECALL_5 = 0.85
GOAL_P95_MS = 50.0
GOAL_FOLD_R1 = (0.797, 0.710, 0.797, 0.758, 0.661)  # main before issue #36, fold by fold
GOAL_MEAN_R1 = 0.78
GOAL_OUTSIDE = (0.80, 0.95)  # R@1, R@5
GOAL_REFERENCE = 0.98
_FILE_RE = re.compile(r"^pp_(?P<nomor>\d+)_(?P<tahun>\d{4})(?:_[\w]+)?\.(?:txt|md)$")
_DOC_RE = re.compile(r"^(?P<jenis>PP) Nomor (?P<nomor>\d+) Tahun (?P<tahun>\d{4})$")
# The regulations the outside set's regulations amend: a hit on either is right (README).
AMENDS = {"PP 51/2023": ("PP 36/2021",)}


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    document: str  # the gold file (GALQA) or short citation (outside set): the fold key
    article: str
    ayat: str = ""  # gold Subsection
    letter: str = ""  # gold Letter: a huruf ("g") or, in Pasal 1 definitions, an angka ("3")
    regulations: tuple[str, ...] = ()  # the short citations a right hit may cite


@dataclass(frozen=True, slots=True)
class Retrieved:
    file_name: str
    heading_path: str
    unit: dict[str, str | None] | None = None
    regulation: str = ""  # the short citation the hit cites ("PP 36/2021")
    citation: str = ""  # the whole citation ("PP 36/2021 Pasal 26 ayat (1)")


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


def file_citation(file_name: str) -> str:
    match = _FILE_RE.match(file_name)
    return f"PP {match['nomor']}/{match['tahun']}" if match else ""


def load_questions(path: Path) -> list[Question]:
    with path.open(encoding="utf-8") as handle:
        return [
            Question(
                row["Question"],
                row["Document"],
                row["Article"].strip(),
                row["Subsection"].strip(),
                row["Letter"].strip(),
                (file_citation(row["Document"]),),
            )
            for row in csv.DictReader(handle)
        ]


def load_outside(folder: Path) -> list[Question]:
    """The outside set: gold regulation and Pasal only; PP 51/2023's questions also accept
    the Pasal of PP 36/2021, which it amends."""
    path = folder / "alfajar_dev_questions.json"
    if not path.exists():
        return []
    out = []
    for item in json.loads(path.read_text(encoding="utf-8")):
        match = _DOC_RE.match(item["expected_doc"])
        if match is None:
            continue
        cited = f"{match['jenis']} {match['nomor']}/{match['tahun']}"
        out.append(
            Question(
                item["question"],
                cited,
                str(item["expected_pasal"]).strip(),
                regulations=(cited, *AMENDS.get(cited, ())),
            )
        )
    return out


def first_hit_rank(question: Question, results: Sequence[Retrieved]) -> int | None:
    """A hit cites the gold Pasal (its heading path or its unit) of a gold regulation (the
    regulation it cites, so a consolidated wording counts for the regulation it amends)."""
    pasal = re.compile(rf"\bPasal {re.escape(question.article)}\b")
    for rank, result in enumerate(results, start=1):
        regulation = result.regulation or file_citation(result.file_name)
        if regulation not in question.regulations:
            continue
        unit_pasal = (result.unit or {}).get("pasal")
        if unit_pasal == question.article or pasal.search(result.heading_path):
            return rank
    return None


def unit_matches(question: Question, top: Retrieved | None) -> tuple[bool, bool]:
    """(ayat right, ayat and letter right) for the top result's unit.

    The unit must be in the gold document and Pasal; the ayat must equal the gold ayat (or be
    absent when the gold has none); the letter is the unit's huruf, or its angka for a digit.
    """
    if top is None or top.unit is None or not _gold_regulation(question, top):
        return False, False
    unit = top.unit
    if unit.get("pasal") != question.article:
        return False, False
    ayat_ok = (unit.get("ayat") or "") == question.ayat
    key = "angka" if question.letter.isdigit() else "huruf"
    return ayat_ok, ayat_ok and (unit.get(key) or "") == question.letter


def _gold_regulation(question: Question, hit: Retrieved) -> bool:
    return (hit.regulation or file_citation(hit.file_name)) in question.regulations


def evaluate(
    name: str,
    questions: Sequence[Question],
    run: Callable[[str], list[Retrieved]],
    warm: bool = True,
) -> Scores:
    for question in questions[:5] if warm else ():  # warm caches and the model before timing
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


def setup_django(database_url: str | None, work: Path, keep: Path | None = None) -> None:
    """Django on ``database_url``, or on an embedded Postgres (kept in ``keep`` if given)."""
    if database_url is None:
        from scripts.services import start_postgres

        postgres = start_postgres(keep)
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


def corpus_files(galqa: Path, outside: Path) -> list[Path]:
    """The regulations both question sets are asked of: GALQA's 15 and the outside set's
    own texts (its PP 35/2021 and PP 36/2021 are GALQA's files)."""
    files = sorted((galqa / "docs").glob("*.txt"))
    if (outside / "docs").is_dir():
        files += sorted((outside / "docs").glob("*.md"))
    return files


def import_corpus(files: Sequence[Path], work: Path) -> dict[str, str]:
    """Import every file as an operator does (``manage.py import_corpus --manifest``, the
    upload's pipeline); files already indexed are skipped. Returns document id → file name."""
    from django.core.management import call_command

    from ingestion.models import Document

    folder = work / "corpus"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "manifest.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "jenis", "nomor", "tahun"])
        for path in files:
            (folder / path.name).symlink_to(path)
            match = _FILE_RE.match(path.name)
            numbers = [match["nomor"], match["tahun"]] if match else ["", ""]
            writer.writerow([path.name, "Peraturan Pemerintah", *numbers])
    started = time.perf_counter()
    call_command(
        "import_corpus",
        "--manifest",
        str(folder / "manifest.csv"),
        "--collection",
        "bench",
        "--summary",
        str(work / "import_summary.csv"),
        "--no-progress",
    )
    print(f"import: {time.perf_counter() - started:.1f}s")
    analyze()
    return {str(d.id): d.file_name for d in Document.objects.all()}


def analyze() -> None:
    """The database as autovacuum leaves it some minutes after an import, as
    ``import_corpus`` leaves it (``ready_for_search``): the lexical match reads the planner's
    statistics to choose how selective to be, and dead rows slow every heap fetch, so a run
    measured before would rank and time otherwise than the same database an hour later."""
    from ingestion.bulk.run import ready_for_search

    started = time.perf_counter()
    ready_for_search()
    print(f"vacuum analyze: {time.perf_counter() - started:.1f}s")


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


def ingest_corpus(docs_dir: Path) -> dict[str, str]:
    """GALQA's regulations alone, imported as :func:`import_corpus` does (other benches)."""
    with tempfile.TemporaryDirectory(prefix="bench-import-") as tmp:
        return import_corpus(sorted(docs_dir.glob("*.txt")), Path(tmp))


def cited_regulation(citation: str | None) -> str:
    """ "PP 36/2021 Pasal 26 ayat (1)" → "PP 36/2021" (the regulation a hit cites)."""
    if not citation:
        return ""
    return re.split(r"\s+(?:Pasal|Penjelasan)\b", citation, maxsplit=1)[0].strip()


def hybrid_runner(
    mode: str, files: dict[str, str], tuning: object, documents: Sequence[str] = ()
) -> Callable[[str], list[Retrieved]]:
    """Questions through the search service; ``documents``: ask only these (GALQA's)."""
    from ingestion.search.service import SearchMode, SearchQuery, search

    search_mode = SearchMode(mode)

    def run(text: str) -> list[Retrieved]:
        # The corpus holds a repealed regulation (PP 59/2021 repeals PP 4/2015) whose
        # questions count like any other: relevance alone, status set aside.
        query = SearchQuery(
            text=text,
            limit=10,
            mode=search_mode,
            include_repealed=True,
            in_force_first=False,
            documents=tuple(documents),
        )
        response = search(query, tuning=tuning, embedder=EMBEDDER)  # type: ignore[arg-type]
        return [
            Retrieved(
                files.get(h.document_id, ""),
                h.heading_path,
                h.unit,
                cited_regulation(h.citation),
                h.citation or "",
            )
            for h in response.results
        ]

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
    if top is None or top.unit is None or not _gold_regulation(question, top):
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
) -> float:
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
    return share


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


# --- the learned fusion: examples, folds, training -------------------------------------------


def collect_examples(
    questions: Sequence[Question], documents: Sequence[str], tuning: object
) -> list[Any]:
    """Each question's candidates and their signals, as search reads them
    (``service.prepare``), and which are right (:func:`first_hit_rank`'s rule)."""
    import numpy as np

    from ingestion.models import Document
    from ingestion.search.features import FEATURES
    from ingestion.search.service import SearchQuery, prepare
    from scripts.fusion_training import Example

    cited = {str(d.id): d.citation or "" for d in Document.objects.all()}
    examples = []
    for question in questions:
        query = SearchQuery(
            text=question.text, include_repealed=True, in_force_first=False,
            documents=tuple(documents),
        )  # fmt: skip
        prepared = prepare(query, EMBEDDER, tuning)  # type: ignore[arg-type]
        pasal = re.compile(rf"\bPasal {re.escape(question.article)}\b")
        rows = prepared.rows
        right = [
            cited.get(r.document_id, "") in question.regulations
            and bool(pasal.search(r.heading_path))
            for r in rows
        ]
        x = np.array([[r.values[f] for f in FEATURES] for r in rows]).reshape(-1, len(FEATURES))
        ids = tuple(r.chunk_id for r in rows)
        examples.append(Example(question.text, question.document, ids, x, np.array(right, bool)))
    return examples


def compare_models(examples: Sequence[Any], questions: Sequence[Question]) -> None:
    """Offline (the candidates' order under each model, before the service's later steps):
    each model kind, and the pairwise model without each signal, fold by fold."""
    from ingestion.search.features import FEATURES
    from scripts.fusion_training import first_right, fit

    groups = regulation_folds(questions)

    def folds(kind: str, l2: float, drop: str = "", top: int = DEFAULT_TOP) -> list[float]:
        keep = [i for i, f in enumerate(FEATURES) if f != drop]
        names = [FEATURES[i] for i in keep]
        out = []
        for group in groups:
            train = [_columns(e, keep) for e in examples if e.group not in group]
            test = [_columns(e, keep) for e in examples if e.group in group]
            model = fit(train, names, kind=kind, l2=l2, top=top)
            ranks = [first_right(model, e) for e in test]
            out.append(sum(r == 1 for r in ranks) / len(test))
        return out

    print("\nfusion models, offline R@1 by fold (candidates ordered by the model alone):")
    for kind, l2, top in (("pairwise", 0.1, 0), ("pairwise", 1.0, 0), ("pairwise", 10.0, 0),
                          ("pointwise", 1.0, 0), ("pairwise", 1.0, 10), ("pairwise", 1.0, 20),
                          ("pairwise", 3.0, 20)):  # fmt: skip
        row = folds(kind, l2, top=top)
        cells = " ".join(f"{v:.3f}" for v in row)
        print(f"  {kind:<9} l2={l2:<4} top={top:<3} {cells}  mean {sum(row) / len(row):.3f}")
    base = folds("pairwise", DEFAULT_L2)
    print("  without one signal (pairwise), ΔR@1 by fold:")
    for name in FEATURES:
        row = folds("pairwise", DEFAULT_L2, drop=name)
        deltas = " ".join(f"{a - b:+.3f}" for a, b in zip(row, base, strict=True))
        print(f"    -{name:<16} {deltas}  mean {sum(row) / len(row) - sum(base) / len(base):+.3f}")


def _columns(example: Any, keep: Sequence[int]) -> Any:
    from dataclasses import replace as dc_replace

    return dc_replace(example, x=example.x[:, keep])


DEFAULT_KIND = "pairwise"
DEFAULT_L2 = 1.0
DEFAULT_TOP = 20  # chosen by the folds printed by compare_models (docs/decisions.md)


def fold_models(examples: Sequence[Any], questions: Sequence[Question]) -> list[Any]:
    """One model per fold, trained on the other folds' questions only."""
    from ingestion.search.features import FEATURES
    from scripts.fusion_training import fit

    models = []
    for group in regulation_folds(questions):
        train = [e for e in examples if e.group not in group]
        models.append(fit(train, FEATURES, kind=DEFAULT_KIND, l2=DEFAULT_L2, top=DEFAULT_TOP))
    return models


def train_shipped(examples: Sequence[Any], out: Path) -> Any:
    from ingestion.search.features import FEATURES
    from scripts.fusion_training import fit

    note = (
        f"{DEFAULT_KIND} logistic, l2 {DEFAULT_L2}, first {DEFAULT_TOP} refitted twice, "
        f"on {len(examples)} GALQA dev questions "
        "(bench/retrieval.py --train-fusion)"
    )
    model = fit(examples, FEATURES, kind=DEFAULT_KIND, l2=DEFAULT_L2, top=DEFAULT_TOP, note=note)
    out.write_text(json.dumps(model.to_json(), indent=2) + "\n", encoding="utf-8")
    print(f"\nfusion model written to {out}")
    for name, weight in zip(model.features, model.weights, strict=True):
        print(f"  {name:<16} {weight:+.3f}")
    return model


def evaluate_by_folds(
    questions: Sequence[Question],
    models: Sequence[Any],
    files: dict[str, str],
    tuning: Any,
    documents: Sequence[str],
) -> Scores:
    """Each fold's questions through the service with the model trained without them."""
    from dataclasses import replace as dc_replace

    groups = regulation_folds(questions)
    merged = Scores("hybrid")
    by_text: dict[int, tuple[Scores, int]] = {}
    for group, model in zip(groups, models, strict=True):
        run = hybrid_runner("hybrid", files, dc_replace(tuning, model=model), documents)
        asked = [q for q in questions if q.document in group]
        scores = evaluate("hybrid", asked, run, warm=not merged.ranks)
        for index, question in enumerate(asked):
            by_text[id(question)] = (scores, index)
    for question in questions:  # back in the questions' order
        scores, index = by_text[id(question)]
        merged.ranks.append(scores.ranks[index])
        merged.latencies_ms.append(scores.latencies_ms[index])
        merged.db_ms.append(scores.db_ms[index])
    for scores in {id(s): s for s, _ in by_text.values()}.values():
        merged.ayat_hits += scores.ayat_hits
        merged.huruf_hits += scores.huruf_hits
    return merged


def print_outside(
    scores: Scores, questions: Sequence[Question], show: Callable[[str], Any]
) -> None:
    print(f"\noutside set ({len(questions)} questions by another author, whole corpus):")
    print(f"  R@1 {scores.recall(1):.3f}  R@5 {scores.recall(5):.3f}  MRR {scores.mrr():.3f}")
    for question, rank in zip(questions, scores.ranks, strict=True):
        if rank != 1:
            top = show(question.text)
            print(f"  rank {rank}: {question.document} Pasal {question.article} ← {top}")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", help="reuse this database (imports only what is missing)")
    parser.add_argument("--galqa", type=Path, default=GALQA)
    parser.add_argument("--outside", type=Path, default=OUTSIDE)
    parser.add_argument("--candidates", type=int)
    parser.add_argument(
        "--only",
        choices=["hybrid", "lexical", "dense", "bm25", "bm25-unit"],
        action="append",
    )
    parser.add_argument(
        "--train-fusion",
        action="store_true",
        help="compare model kinds and signals by folds, then write the shipped fusion model",
    )
    parser.add_argument("--model-out", type=Path, help="where --train-fusion writes the model")
    parser.add_argument(
        "--no-named-scope",
        action="store_true",
        help="turn off the named-regulation narrowing (to measure what it adds)",
    )
    parser.add_argument(
        "--query-cache",
        type=Path,
        help="JSON file of query vectors, read and extended: repeated runs skip the model "
        "(latency then excludes query embedding)",
    )
    return parser.parse_args()


def tuning_from(args: argparse.Namespace) -> Any:
    from ingestion.search.service import SearchTuning

    tuning = SearchTuning.from_settings()
    overrides = {
        "candidates": args.candidates,
        "named_scope": False if args.no_named_scope else None,
    }
    return replace(tuning, **{k: v for k, v in overrides.items() if v is not None})


def main() -> int:
    args = parse_args()
    if not (args.galqa / "dev_questions.csv").exists():
        print(f"GALQA corpus not found under {args.galqa}; nothing to measure")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp:
        setup_django(args.database_url, Path(tmp))
        files = import_corpus(corpus_files(args.galqa, args.outside), Path(tmp))
        galqa_docs = [doc for doc, name in files.items() if name.endswith(".txt")]
        questions = load_questions(args.galqa / "dev_questions.csv")
        outside = load_outside(args.outside)
        tuning = tuning_from(args)
        global EMBEDDER
        EMBEDDER = TimedEmbedder(args.query_cache)
        print(f"{len(questions)} GALQA questions, {len(outside)} outside, {len(files)} documents")
        examples = collect_examples(questions, galqa_docs, tuning)
        if args.train_fusion:
            compare_models(examples, questions)
            from ingestion.search.fusion import DEFAULT_MODEL

            train_shipped(examples, args.model_out or DEFAULT_MODEL)
        shipped = _shipped_model(args)
        tuning = replace(tuning, model=shipped)
        methods = args.only or ["hybrid", "lexical", "dense", "bm25", "bm25-unit"]
        results = []
        for method in methods:
            if method == "hybrid":
                models = fold_models(examples, questions)
                results.append(evaluate_by_folds(questions, models, files, tuning, galqa_docs))
                continue
            if method == "bm25":
                run = bm25_runner(files)
            elif method == "bm25-unit":
                run = bm25_unit_runner(files)
            else:
                run = hybrid_runner(method, files, tuning, galqa_docs)
            results.append(evaluate(method, questions, run))
        hybrid = next((s for s in results if s.name == "hybrid"), None)
        folds_ok = outside_ok = reference_ok = True
        if hybrid is not None:
            print_folds(hybrid, questions)
            rows = fold_scores(hybrid, questions, regulation_folds(questions))
            folds_ok = all(r[0] >= g - 1e-9 for r, g in zip(rows, GOAL_FOLD_R1, strict=True))
            folds_ok &= sum(r[0] for r in rows) / len(rows) >= GOAL_MEAN_R1
            reference = evaluate_references(
                questions, hybrid_runner("hybrid", files, tuning, galqa_docs)
            )
            reference_ok = reference >= GOAL_REFERENCE
        if outside:
            run = hybrid_runner("hybrid", files, tuning)
            scores = evaluate("outside", outside, run)
            print_outside(scores, outside, lambda text: _top_citation(run(text)))
            outside_ok = scores.recall(1) >= GOAL_OUTSIDE[0] and scores.recall(5) >= GOAL_OUTSIDE[1]
        EMBEDDER.save()
        print_table(results)
        print_embed_share()
        if hybrid is not None:
            ok = hybrid.recall(5) >= GOAL_RECALL_5 and hybrid.percentile(0.95) < GOAL_P95_MS
            print(f"\ngoals (R@5 >= {GOAL_RECALL_5}, p95 < {GOAL_P95_MS} ms): {_met(ok)}")
            print(f"  every fold R@1 >= {GOAL_FOLD_R1}, mean >= {GOAL_MEAN_R1}: {_met(folds_ok)}")
            print(f"  reference queries exact first >= {GOAL_REFERENCE}: {_met(reference_ok)}")
        if outside:
            print(
                f"  outside R@1 >= {GOAL_OUTSIDE[0]}, R@5 >= {GOAL_OUTSIDE[1]}: {_met(outside_ok)}"
            )
    return 0


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _shipped_model(args: argparse.Namespace) -> Any:
    from ingestion.search.fusion import load_model

    return load_model(args.model_out) if args.model_out else load_model()


def _top_citation(results: Sequence[Retrieved]) -> str:
    if not results:
        return "nothing"
    top = results[0]
    pasal = (top.unit or {}).get("pasal") or top.heading_path.rsplit("›", 1)[-1].strip()
    return f"{top.regulation or top.file_name} {pasal}"


if __name__ == "__main__":
    sys.exit(main())
