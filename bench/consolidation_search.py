"""Search over the consolidated dev chains (issue 20), and what consolidation adds to ingest.

Called by ``bench/consolidation.py --search`` with its chains, or alone:
``.venv/bin/python bench/consolidation_search.py [--limit N] [--e5]``.

It starts its own embedded Postgres in a temp dir, migrates, and ingests every chain's
regulations through the real pipeline (fetch → parse → chunk → embed → index → relations
and consolidation), originals first. Then, for every amended or inserted Pasal (in force
today), a query made of a distinctive phrase of its wording in force — the 12-word
window of rarest words across the chain's Pasal — and reports:

- the share whose first result cites the amended regulation's unit (``UU 31/1999 Pasal 5
  …``) with ``consolidated: true`` (goal ≥ 0.95), over every such Pasal and over those whose
  phrase is distinctive: found in no other Pasal's wording of any regulation indexed (near
  twins such as Tipikor Pasal 11 and 12 share every 12-word window of the rarest words, and
  no search can tell which of them a shared phrase means);
- how often the replaced wording (the original's Pasal, or a superseded restatement) comes
  first as current law, for those queries and for queries made from the replaced wording
  itself (goal 0);
- the ingest time consolidation added to each amending regulation (goal ≤ 10 %).

Vectors come from a hashed bag of words unless ``--e5`` (the e5 model embeds a chain in
minutes on two cores): the dense list then ranks by shared words, so the figures are those
of the lexical side of hybrid search with a crude dense partner.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import io
import logging
import math
import os
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GOAL_SHARE = 0.95
GOAL_ADDED = 0.10
PHRASE_WORDS = 12
_WORD = re.compile(r"\w+", re.UNICODE)


class ChainLike(Protocol):
    name: str
    original: Path
    amendments: list[Path]


@dataclass
class ChainFigures:
    name: str
    queries: int = 0
    cited: int = 0
    replaced_first: int = 0
    old_queries: int = 0
    old_replaced_first: int = 0
    distinct_queries: int = 0
    distinct_cited: int = 0
    ingest_s: list[float] = field(default_factory=list)
    consolidation_s: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)


def _setup(e5: bool) -> None:
    from scripts.services import start_postgres

    postgres = start_postgres()
    import atexit

    atexit.register(postgres.stop)
    os.environ["DATABASE_URL"] = postgres.url
    store = tempfile.mkdtemp(prefix="consolidation-search-")
    os.environ["OBJECT_STORAGE_URL"] = Path(store).as_uri()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    logging.getLogger("ingestion").setLevel(logging.WARNING)  # one line per search otherwise
    if not e5:
        _use_hashed_embeddings()


def _use_hashed_embeddings() -> None:
    from django.conf import settings

    from ingestion.pipeline import embed, runner

    def vector(text: str) -> list[float]:
        values = [0.0] * settings.EMBEDDING_DIM
        for word in _WORD.findall(text.lower()):
            digest = hashlib.sha256(word.encode()).digest()
            values[int.from_bytes(digest[:4], "big") % len(values)] += 1 if digest[4] % 2 else -1
        norm = math.sqrt(sum(x * x for x in values)) or 1.0
        return [x / norm for x in values]

    class Hashed(embed.Embedder):
        model_id = "bench-hash-v1"

        def _passages(self, texts: list[str]) -> list[list[float]]:
            return [vector(t) for t in texts]

        def _query(self, text: str, *, interactive: bool) -> list[float]:
            return vector(text)

    embedder = Hashed()
    runner.get_embedder = lambda: embedder  # type: ignore[assignment]
    embed.get_embedder = lambda: embedder  # type: ignore[assignment]


def _ingest(path: Path) -> tuple[str, float]:
    from ingestion.pipeline.request import IngestRequest, Provenance
    from ingestion.pipeline.runner import ingest
    from ingestion.storage import get_storage

    key = f"bench/{path.name}"
    get_storage().put(key, io.BytesIO(path.read_bytes()))
    started = time.perf_counter()
    result = ingest(
        IngestRequest(
            job=None,
            storage_key=key,
            format="md",
            parser_file_name=path.name,
            mime_type="text/markdown",
            title=path.stem.replace("_", " "),
            title_from_partner=True,
            source_type="JDIH",
            source_key=f"bench:{path.name}",
            source_version="1",
            source_metadata={},
            provenance=Provenance(registry_id=path.name, collection_name="JDIH"),
        )
    )
    took = time.perf_counter() - started
    if result.document_id is None:
        raise SystemExit(f"{path.name}: {result.error}")
    return str(result.document_id), took


def _phrase(
    text: str, df: Counter[str], documents: int, others: Sequence[str] = ()
) -> tuple[str, bool]:
    """The window of ``PHRASE_WORDS`` words that weighs most by IDF over the chain's Pasal
    wordings (its rarest words: what tells this Pasal from its neighbours), preferring one
    found in none of ``others`` (normalised wordings of every other Pasal); the flag says
    whether the phrase is distinctive in that sense."""
    words = text.split()
    if len(words) <= PHRASE_WORDS:
        phrase = " ".join(words)
        return phrase, not any(_normal(phrase) in other for other in others)
    weights = [math.log(documents / max(df[_key(w)], 1)) for w in words]
    ranked = sorted(
        range(len(words) - PHRASE_WORDS + 1),
        key=lambda i: (-sum(weights[i : i + PHRASE_WORDS]), i),
    )
    for start in ranked:
        phrase = " ".join(words[start : start + PHRASE_WORDS])
        if not any(_normal(phrase) in other for other in others):
            return phrase, True
    return " ".join(words[ranked[0] : ranked[0] + PHRASE_WORDS]), False


def _normal(text: str) -> str:
    return " " + " ".join(_key(w) for w in text.split()) + " "


def _other_wordings(document_id: str, number: str) -> list[str]:
    """Every stored Pasal wording but those of ``number`` in ``document_id``."""
    from ingestion.models import PasalVersion

    rows = PasalVersion.objects.values_list("document_id", "number", "text")
    return [_normal(t) for d, n, t in rows if (str(d), n) != (document_id, number)]


def _key(word: str) -> str:
    return word.lower().strip('.,;:()"“”')


def _first(text: str) -> Any:
    from ingestion.search.service import SearchQuery, search

    results = search(SearchQuery(text=text, limit=5)).results
    return results[0] if results else None


def _run_chain(chain: ChainLike, limit: int | None) -> ChainFigures:
    from ingestion.models import Consolidation, Document, PasalVersion
    from ingestion.search.lexical import reset_term_stats

    figures = ChainFigures(chain.name)
    target_id, _took = _ingest(chain.original)
    for path in chain.amendments:
        _doc, took = _ingest(path)
        row = Consolidation.objects.filter(document_id=target_id).first()
        figures.ingest_s.append(took)
        figures.consolidation_s.append((row.took_ms / 1000) if row else 0.0)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ingestion_chunk")
    reset_term_stats()
    target = Document.objects.get(pk=target_id)
    versions = list(PasalVersion.objects.filter(document=target).order_by("sort_order", "seq"))
    df: Counter[str] = Counter()
    for version in versions:
        df.update({w.lower().strip('.,;:()"“”') for w in version.text.split()})
    histories: dict[int, list[PasalVersion]] = {}
    for version in versions:
        histories.setdefault(version.sort_order, []).append(version)
    changed = [h for h in histories.values() if len(h) > 1]
    superseded = {h[0].number for h in changed}
    for history in changed[:limit]:
        last = history[-1]
        if last.state not in ("amended", "inserted") or last.valid_to is not None:
            continue
        figures.queries += 1
        phrase, distinct = _phrase(
            last.text, df, len(versions), _other_wordings(target_id, last.number)
        )
        figures.distinct_queries += distinct
        hit = _first(phrase)
        if hit is None:
            figures.misses.append(f"Pasal {last.number}: no result")
            continue
        unit = f"{target.citation} Pasal {last.number}"
        cited = hit.consolidated and (hit.citation == unit or hit.citation.startswith(unit + " "))
        figures.cited += cited
        figures.distinct_cited += cited and distinct
        if not cited:
            shared = "" if distinct else " (phrase shared with another Pasal)"
            figures.misses.append(f"Pasal {last.number}: {hit.citation}{shared}")
        figures.replaced_first += _is_replaced(hit, target_id, superseded)
        old = history[0]
        if old.state == "original" and old.text.strip():
            figures.old_queries += 1
            old_hit = _first(_phrase(old.text, df, len(versions))[0])
            figures.old_replaced_first += _is_replaced(old_hit, target_id, superseded)
    return figures


def _is_replaced(hit: Any, target_id: str, superseded: set[str]) -> bool:
    """The first result is a replaced wording offered as current law."""
    if hit is None or hit.in_force is False:
        return False
    if hit.document_id == target_id and hit.unit and hit.unit.get("pasal") in superseded:
        return True
    return False


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.3f}" if whole else "—"


def main(chains: Sequence[ChainLike], *, limit: int | None = None, e5: bool = False) -> None:
    _setup(e5)
    print("\nsearch over the consolidated chains (first result; loaded machine, 2 cores)")
    print(
        f"{'chain':22} {'queries':>7} {'cited':>6} {'share':>6} {'replaced 1st':>12}"
        f" {'old-q':>6} {'old 1st':>7} {'added ingest':>12} {'distinct':>8} {'share':>6}"
    )
    total = ChainFigures("total")
    for chain in chains:
        figures = _run_chain(chain, limit)
        added = [
            c / max(t - c, 1e-9)
            for t, c in zip(figures.ingest_s, figures.consolidation_s, strict=True)
        ]
        print(
            f"{figures.name[:22]:22} {figures.queries:>7} {figures.cited:>6}"
            f" {_share(figures.cited, figures.queries):>6} {figures.replaced_first:>12}"
            f" {figures.old_queries:>6} {figures.old_replaced_first:>7}"
            f" {max(added, default=0.0):>11.1%} {figures.distinct_queries:>8}"
            f" {_share(figures.distinct_cited, figures.distinct_queries):>6}"
        )
        for miss in figures.misses[:8]:
            print(f"    miss {miss}")
        for name in (
            "queries",
            "cited",
            "replaced_first",
            "old_queries",
            "old_replaced_first",
            "distinct_queries",
            "distinct_cited",
        ):
            setattr(total, name, getattr(total, name) + getattr(figures, name))
        total.ingest_s += figures.ingest_s
        total.consolidation_s += figures.consolidation_s
    spent = sum(total.consolidation_s)
    rest = sum(total.ingest_s) - spent
    print(
        f"{'total':22} {total.queries:>7} {total.cited:>6} {_share(total.cited, total.queries):>6}"
        f" {total.replaced_first:>12} {total.old_queries:>6} {total.old_replaced_first:>7}"
        f" {spent / max(rest, 1e-9):>11.1%} {total.distinct_queries:>8}"
        f" {_share(total.distinct_cited, total.distinct_queries):>6}"
    )
    print(
        "distinct: queries whose phrase is in no other Pasal's wording, and their share; "
        f"goals: share ≥ {GOAL_SHARE}, replaced first = 0, consolidation adds ≤ {GOAL_ADDED:.0%}"
        " of an amending regulation's ingest"
    )


def _cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, help="amended Pasal queried per chain")
    parser.add_argument("--e5", action="store_true", help="embed with the configured model")
    parser.add_argument(
        "--chain", action="append", help="only the chains whose name starts with this (repeatable)"
    )
    args = parser.parse_args()
    # The chain table is bench/consolidation.py's; it is a script, loaded by its path.
    spec = importlib.util.spec_from_file_location(
        "consolidation_bench", Path(__file__).with_name("consolidation.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    chains = module.chains(module.DEFAULT_CORPUS)
    if args.chain:
        chains = [c for c in chains if any(c.name.startswith(p) for p in args.chain)]
    main(chains, limit=args.limit, e5=args.e5)


if __name__ == "__main__":
    _cli()
