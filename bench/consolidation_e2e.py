"""Consolidation end to end, against a gold the product's reader did not make (issue #33).

Run from the repository root::

    .venv/bin/python bench/consolidation_e2e.py [--format md --format pdf --format scan]
        [--chain NAME]... [--renders DIR] [--no-search]

For each format the bench starts from an empty database, imports every chain's files
through ``import_corpus``'s core (:func:`ingestion.bulk.one.import_item`: the admin
upload's road, hashed vectors instead of the e5 model), then reads the product's API with
an API token (``GET /api/documents/{id}``, ``/consolidated``, ``/api/search``) and compares
it with the gold:

- ``md``: the corpus markdown as it is;
- ``pdf``: the same text laid out as the official PDFs are (``bench/official_pdf.py``:
  running heads, page numbers, catchwords, justified and hyphenated lines, the Penjelasan
  on its own pages);
- ``scan``: those pages rendered at 200 dpi, degraded as a scanner does and read by the
  product's OCR.

The gold (``bench/gold/consolidation.json``) was made by a second reader written apart from
the product's and settled by reading where the two disagreed (its ``how``). Printed per
chain and in total:

- amended/inserted: the Pasal an amendment restates or inserts whose wording in force is
  the gold's, whitespace folded (goal ≥ 0.97; ``near``: ≥ 0.98 alike, for OCR's letters);
- deleted: marked deleted (goal 1.00); untouched: original, wording unchanged (goal 1.00);
- items: the numbered items the API says each amending law has, against the gold's count;
- search: a distinctive 12-word phrase of each amended Pasal's new wording, the first
  result cites the consolidated unit (goal ≥ 0.95); stale: the first result is a replaced
  wording offered as law, for those queries and for phrases of the replaced wording (goal 0);
- for pdf and scan, the share of Pasal whose state and wording agree with the markdown's
  consolidation (goal ≥ 0.97; wording ≥ 0.98 alike).
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import os
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import gold.extract as gold_reader  # noqa: E402  (bench/gold/extract.py)

CORPUS = Path("/work/shared/corpus")
GOLD = REPO / "bench" / "gold" / "consolidation.json"
GOLD_PDF = REPO / "bench" / "gold" / "consolidation_pdf.json"
# Page furniture that must never stand inside a wording: a folio, a catchword, a site footer.
JUNK_RE = re.compile(r"\s-\s?\d{1,3}\s?-(?:\s|$)|(?:\.\s?){3}|…|jdih\.\w+\.go\.id")
FORMATS = ("md", "pdf", "scan")
PHRASE_WORDS = 12
NEAR = 0.98
GOALS = {"changed": 0.97, "deleted": 1.0, "untouched": 1.0, "search": 0.95, "agree": 0.97}


_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})


def fold(text: str) -> str:
    """Whitespace folded, and quotes: a scan's OCR reads “ ” as "."""
    return " ".join(text.translate(_QUOTES).split()).strip(" \"'")


def alike(a: str, b: str) -> float:
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


# --- the gold --------------------------------------------------------------------------


@dataclass
class GoldPasal:
    number: str
    state: str
    wording: str | None  # folded; None: state only (or bounds, below)
    # The real PDF chains' gold gives a wording's bounds: its first and last words and words
    # a change removed, which must not be in it.
    first: str = ""
    last: str = ""
    absent: tuple[str, ...] = ()


@dataclass
class GoldChain:
    name: str
    files: list[str]  # the original first, then its amendments in order
    items: dict[str, int]
    pasal: dict[str, GoldPasal]
    folder: str = "amendments"  # under the corpus; "amendments/pdf" for the real PDFs

    @property
    def real_pdf(self) -> bool:
        return self.folder.endswith("pdf")


def load_gold(corpus: Path, names: list[str] | None) -> list[GoldChain]:
    data = json.loads(GOLD.read_text(encoding="utf-8"))
    chains = []
    folder = corpus / "amendments"
    for chain in data["chains"]:
        if names and not any(chain["chain"].startswith(n) for n in names):
            continue
        files = [chain["original"], *chain["items"]]
        texts = {
            f: gold_reader.content_text((folder / f).read_text(encoding="utf-8")) for f in files
        }
        pasal = {}
        for number, entry in chain["pasal"].items():
            wording = entry.get("wording")
            text = None
            if wording and wording.get("first") and entry["state"] != "deleted":
                text = gold_reader.locate(texts[wording["file"]], wording)
            pasal[number] = GoldPasal(number, entry["state"], fold(text) if text else None)
        chains.append(GoldChain(chain["chain"], files, dict(chain["items"]), pasal))
    return chains + load_pdf_gold(names)


def load_pdf_gold(names: list[str] | None) -> list[GoldChain]:
    """The real PDF chains, gold by reading (``bench/gold/consolidation_pdf.json``)."""
    chains = []
    for chain in json.loads(GOLD_PDF.read_text(encoding="utf-8"))["chains"]:
        if names and not any(chain["chain"].startswith(n) for n in names):
            continue
        pasal = {
            str(n): GoldPasal(str(n), "original", None) for n in range(1, chain["pasal_count"] + 1)
        }
        for number in chain["deleted"]:
            pasal[number] = GoldPasal(number, "deleted", None)
        for number, entry in chain["changed"].items():
            pasal[number] = GoldPasal(
                number,
                entry["state"],
                None,
                entry["first"],
                entry["last"],
                tuple(entry.get("absent", ())),
            )
        files = [chain["original"], *chain["amendments"]]
        chains.append(
            GoldChain(chain["chain"], files, dict(chain["items"]), pasal, "amendments/pdf")
        )
    return chains


# --- the files of each format ----------------------------------------------------------


def files_for(fmt: str, chain: GoldChain, corpus: Path, renders: Path) -> list[Path]:
    import official_pdf

    sources = [corpus / chain.folder / f for f in chain.files]
    if fmt == "md":
        return [] if chain.real_pdf else sources
    out = []
    for source in sources:
        pdf = source if chain.real_pdf else renders / "pdf" / f"{source.stem}.pdf"
        if not pdf.exists() or pdf.stat().st_mtime < source.stat().st_mtime:
            pdf.parent.mkdir(parents=True, exist_ok=True)
            official_pdf.render(source.read_text(encoding="utf-8"), pdf)
        if fmt == "pdf":
            out.append(pdf)
            continue
        scan = renders / "scan" / f"{source.stem}.pdf"
        if not scan.exists() or scan.stat().st_mtime < pdf.stat().st_mtime:
            scan.parent.mkdir(parents=True, exist_ok=True)
            official_pdf.scan(pdf, scan)
        out.append(scan)
    return out


# --- the product, through its own roads ------------------------------------------------


def setup() -> None:
    from scripts.services import start_postgres

    postgres = start_postgres()
    import atexit

    atexit.register(postgres.stop)
    os.environ["DATABASE_URL"] = postgres.url
    os.environ["OBJECT_STORAGE_URL"] = Path(tempfile.mkdtemp(prefix="cons-e2e-")).as_uri()
    os.environ["API_RATE_LIMIT"] = "10000/second"
    os.environ["API_RATE_BURST"] = "10000"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    import django

    django.setup()
    import logging

    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    logging.getLogger("ingestion").setLevel(logging.WARNING)
    logging.getLogger("django").setLevel(logging.ERROR)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import consolidation_search

    consolidation_search._use_hashed_embeddings()


class Api:
    """The product's HTTP API, called through Django's test client with a real token."""

    def __init__(self) -> None:
        import io

        from django.core.management import call_command
        from django.test import Client

        out = io.StringIO()
        name = f"bench-{time.monotonic_ns()}"
        call_command("create_api_token", name, "--scope", "search", stdout=out)
        token = out.getvalue().strip().splitlines()[-1].strip()
        self.client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")

    def get(self, path: str, **params: str) -> Any:
        response = self.client.get(path, params)
        if response.status_code != 200:
            raise RuntimeError(f"{path}: HTTP {response.status_code} {response.content[:300]!r}")
        return response.json()


def empty_database() -> None:
    from django.core.management import call_command

    call_command("flush", "--noinput", verbosity=0)


def import_files(paths: list[Path]) -> list[str]:
    from ingestion.bulk.items import from_paths
    from ingestion.bulk.one import ImportSettings, import_item

    options = ImportSettings(source_type="JDIH", collection="consolidation-e2e")
    ids = []
    for path in paths:
        result = import_item(from_paths([str(path)])[0], options)
        if not result.document_id:
            raise SystemExit(f"{path.name}: {result.status} {result.reason}")
        ids.append(result.document_id)
    return ids


def review(ids: list[str], figures: Figures) -> None:
    """A reviewer approves every parked chunk as OCR read it (the review page's bulk
    approval), so the second search pass sees what a reviewed scan serves."""
    from django.contrib.auth import get_user_model

    from ingestion.models import Chunk
    from ingestion.review import approve_all

    reviewer, _ = get_user_model().objects.get_or_create(username="e2e-reviewer")
    for document_id in ids:
        chunks = Chunk.objects.filter(document_id=document_id)
        figures.chunks += chunks.count()
        figures.parked += chunks.filter(indexed=False).count()
        approve_all(UUID(document_id), user=reviewer)


# --- scoring ---------------------------------------------------------------------------


@dataclass
class Figures:
    changed: int = 0
    changed_right: int = 0
    changed_near: int = 0
    deleted: int = 0
    deleted_right: int = 0
    untouched: int = 0
    untouched_right: int = 0
    items_gold: int = 0
    items_read: int = 0
    queries: int = 0
    cited: int = 0
    stale_first: int = 0
    old_queries: int = 0
    old_stale_first: int = 0
    agree: int = 0
    agree_of: int = 0
    chunks: int = 0
    parked: int = 0  # chunks OCR did not trust, out of search until a reviewer settles them
    reviewed_queries: int = 0
    reviewed_cited: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        for name in self.__dataclass_fields__:
            if name != "misses":
                setattr(self, name, getattr(self, name) + getattr(other, name))


def score_pasal(gold: GoldChain, pasals: dict[str, dict[str, Any]], figures: Figures) -> None:
    for number, expected in gold.pasal.items():
        found = pasals.get(number)
        state = found["state"] if found else "missing"
        text = fold(found["text"] or "") if found else ""
        if expected.state in ("amended", "inserted"):
            figures.changed += 1
            ok_state = state in ("amended", "inserted") and within_bounds(expected, text)
            exact = ok_state and (expected.wording is None or text == expected.wording)
            near = ok_state and (expected.wording is None or alike(text, expected.wording) >= NEAR)
            figures.changed_right += exact
            figures.changed_near += near
            if not exact:
                figures.misses.append(f"Pasal {number}: {state}, {_diff(expected.wording, text)}")
        elif expected.state == "deleted":
            figures.deleted += 1
            figures.deleted_right += state == "deleted"
            if state != "deleted":
                figures.misses.append(f"Pasal {number}: {state}, not deleted")
        else:
            figures.untouched += 1
            right = state == "original" and (expected.wording is None or text == expected.wording)
            right = right and (expected.wording is not None or not JUNK_RE.search(text))
            figures.untouched_right += right
            if not right:
                figures.misses.append(
                    f"Pasal {number}: {state} (untouched), {_diff(expected.wording, text)}"
                )


def within_bounds(expected: GoldPasal, text: str) -> bool:
    """A real PDF's wording: its bounds, none of the removed words, no page furniture."""
    if not (expected.first or expected.last):
        return True
    return (
        text.startswith(expected.first)
        and text.endswith(expected.last)
        and not any(a in text for a in expected.absent)
        and not JUNK_RE.search(text)
    )


def _diff(expected: str | None, got: str) -> str:
    if expected is None:
        return f"bounds or state: «{got[:60]} … {got[-60:]}»"
    if expected == got:
        return "same wording"
    pairs = enumerate(zip(expected, got, strict=False))
    at = next((i for i, (a, b) in pairs if a != b), min(len(expected), len(got)))
    gold, mine = expected[max(0, at - 30) : at + 40], got[max(0, at - 30) : at + 40]
    return f"differs at {at}: gold «{gold}» got «{mine}»"


def score_items(
    gold: GoldChain, consolidated: dict[str, Any], ids: list[str], figures: Figures
) -> None:
    read = {a["documentId"]: a for a in consolidated.get("amendments", [])}
    for file, document_id in zip(gold.files[1:], ids[1:], strict=True):
        figures.items_gold += gold.items[file]
        amendment = read.get(document_id)
        counts = amendment["counts"] if amendment else {}
        numbered = counts.get("numbered", counts.get("total", 0))
        figures.items_read += min(numbered, gold.items[file])
        if numbered != gold.items[file]:
            figures.misses.append(
                f"{file}: {numbered} numbered items read, gold {gold.items[file]}"
            )


def _key(word: str) -> str:
    return word.lower().strip('.,;:()"“”')


def phrase(text: str, df: Counter[str], documents: int) -> str:
    """The window of PHRASE_WORDS words weighing most by IDF over the chain's wordings."""
    words = text.split()
    if len(words) <= PHRASE_WORDS:
        return text
    weights = [math.log(documents / max(df[_key(w)], 1)) for w in words]
    best = max(
        range(len(words) - PHRASE_WORDS + 1), key=lambda i: (sum(weights[i : i + PHRASE_WORDS]), -i)
    )
    return " ".join(words[best : best + PHRASE_WORDS])


def score_search(
    api: Api,
    gold: GoldChain,
    original: dict[str, Any],
    pasals: dict[str, dict[str, Any]],
    figures: Figures,
) -> None:
    """First results for phrases of the new wordings, and of the replaced ones."""
    citation = original["citation"]
    wordings = [p.wording for p in gold.pasal.values() if p.wording]
    if gold.real_pdf:  # a wording within its gold bounds stands in for the gold's
        gold = checked_wordings(gold, pasals)
        wordings = [p.wording for p in gold.pasal.values() if p.wording]
    df: Counter[str] = Counter()
    for wording in wordings:
        df.update({_key(w) for w in wording.split()})
    replaced = {n for n, p in gold.pasal.items() if p.state in ("amended", "deleted")}
    for number, expected in gold.pasal.items():
        if expected.state not in ("amended", "inserted") or not expected.wording:
            continue
        figures.queries += 1
        hit = _first(api, phrase(expected.wording, df, len(wordings)))
        unit = f"{citation} Pasal {number}"
        cited = hit is not None and (
            hit["citation"] == unit or hit["citation"].startswith(unit + " ")
        )
        figures.cited += cited
        if not cited:
            figures.misses.append(
                f"search Pasal {number}: first {hit['citation'] if hit else None}"
            )
        figures.stale_first += _stale(hit, original["id"], replaced)
        old = _original_wording(pasals.get(number))
        if expected.state == "amended" and old:
            figures.old_queries += 1
            old_hit = _first(api, phrase(old, df, len(wordings)))
            if _stale(old_hit, original["id"], replaced):
                figures.old_stale_first += 1
                figures.misses.append(f"stale: Pasal {number}'s replaced wording first as law")


def checked_wordings(gold: GoldChain, pasals: dict[str, dict[str, Any]]) -> GoldChain:
    pasal = {}
    for number, expected in gold.pasal.items():
        text = fold((pasals.get(number) or {}).get("text") or "")
        known = expected.first or expected.last
        wording = text if known and text and within_bounds(expected, text) else None
        pasal[number] = GoldPasal(number, expected.state, wording)
    return GoldChain(gold.name, gold.files, gold.items, pasal, gold.folder)


def _first(api: Api, text: str) -> dict[str, Any] | None:
    results = api.get("/api/search", q=text, limit="5")["results"]
    return results[0] if results else None


def _original_wording(pasal: dict[str, Any] | None) -> str:
    if not pasal:
        return ""
    versions = pasal.get("versions") or []
    return fold(versions[0]["text"]) if versions and versions[0]["state"] == "original" else ""


def _stale(hit: dict[str, Any] | None, original_id: str, replaced: set[str]) -> bool:
    """A replaced wording first, offered as law: the original's own text of a Pasal the
    chain changed or deleted, not marked out of force."""
    if hit is None or hit.get("inForce") is False or hit.get("consolidated"):
        return False
    unit = hit.get("unit") or {}
    return hit["documentId"] == original_id and unit.get("pasal") in replaced


def agreement(
    md: dict[str, dict[str, Any]], other: dict[str, dict[str, Any]], figures: Figures
) -> None:
    for number, pasal in md.items():
        figures.agree_of += 1
        mine = other.get(number)
        same = (
            mine is not None
            and mine["state"] == pasal["state"]
            and alike(fold(mine["text"] or ""), fold(pasal["text"] or "")) >= NEAR
        )
        figures.agree += same


# --- one run ---------------------------------------------------------------------------


def run_format(
    fmt: str,
    chains: list[GoldChain],
    corpus: Path,
    renders: Path,
    search: bool,
    md_pasals: dict[str, dict[str, dict[str, Any]]],
) -> tuple[Figures, dict[str, dict[str, dict[str, Any]]]]:
    empty_database()
    api = Api()
    total = Figures()
    seen: dict[str, dict[str, dict[str, Any]]] = {}
    print(f"\n== {fmt}")
    for chain in chains:
        started = time.perf_counter()
        files = files_for(fmt, chain, corpus, renders)
        if not files:
            continue  # a real PDF chain has no markdown
        ids = import_files(files)
        took = time.perf_counter() - started
        original = api.get(f"/api/documents/{ids[0]}")
        consolidated = api.get(f"/api/documents/{ids[0]}/consolidated")
        pasals = {p["number"]: p for p in consolidated.get("pasals", [])}
        seen[chain.name] = pasals
        figures = Figures()
        score_pasal(chain, pasals, figures)
        score_items(chain, consolidated, ids, figures)
        if search:
            score_search(api, chain, original, pasals, figures)
        if fmt == "scan":
            review(ids, figures)
            if search:
                after = Figures()
                score_search(api, chain, original, pasals, after)
                figures.reviewed_queries, figures.reviewed_cited = after.queries, after.cited
        if fmt != "md" and chain.name in md_pasals:
            agreement(md_pasals[chain.name], pasals, figures)
        print_row(chain.name, figures, took)
        for miss in figures.misses[: int(os.environ.get("E2E_MISSES", "12"))]:
            print(f"      {miss}")
        total.add(figures)
    print_row("TOTAL", total, None)
    return total, seen


def share(part: int, whole: int) -> str:
    return f"{part / whole:.3f}" if whole else "  —  "


def print_row(name: str, f: Figures, took: float | None) -> None:
    print(
        f"  {name[:20]:20} changed {share(f.changed_right, f.changed)}"
        f" ({f.changed_right}/{f.changed},"
        f" near {share(f.changed_near, f.changed)}) deleted {share(f.deleted_right, f.deleted)}"
        f" ({f.deleted_right}/{f.deleted}) untouched {share(f.untouched_right, f.untouched)}"
        f" ({f.untouched_right}/{f.untouched}) items {f.items_read}/{f.items_gold}"
        f" | search {share(f.cited, f.queries)} ({f.cited}/{f.queries}) stale {f.stale_first}"
        f"+{f.old_stale_first}/{f.old_queries}"
        + (f" | agree {share(f.agree, f.agree_of)}" if f.agree_of else "")
        + (
            f" | parked {f.parked}/{f.chunks}, search after review"
            f" {share(f.reviewed_cited, f.reviewed_queries)}"
            if f.chunks
            else ""
        )
        + (f" | {took:.0f} s" if took is not None else "")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--format", action="append", choices=FORMATS)
    parser.add_argument("--chain", action="append", help="chains whose name starts so")
    parser.add_argument(
        "--renders", type=Path, default=Path(tempfile.gettempdir()) / "cons-e2e-renders"
    )
    parser.add_argument("--no-search", action="store_true")
    args = parser.parse_args()
    formats = args.format or list(FORMATS)
    if "md" not in formats and set(formats) & {"pdf", "scan"}:
        formats = ["md", *formats]  # agreement is measured against the markdown's
    chains = load_gold(args.corpus, args.chain)
    setup()
    md_pasals: dict[str, dict[str, dict[str, Any]]] = {}
    totals = {}
    for fmt in formats:
        totals[fmt], seen = run_format(
            fmt, chains, args.corpus, args.renders, not args.no_search, md_pasals
        )
        if fmt == "md":
            md_pasals = seen
    print(
        "\ngoals: changed ≥ 0.97, deleted 1.00, untouched 1.00, search ≥ 0.95, stale 0,"
        " agree ≥ 0.97"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
