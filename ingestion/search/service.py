"""Hybrid retrieval: one service for the API, the UI, MCP and (later) RAG answers.

One question goes through four steps, each in a module of its own:

1. **understand** (:mod:`ingestion.search.understand`): the bounded text without its
   glosses, its content words, the unit and regulation it names, the term it asks to define;
2. **candidates** (:mod:`ingestion.search.candidates`): every chunk the dense, lexical and
   title lists propose, the search inside a named regulation
   (:mod:`ingestion.search.named`), the units defining the asked term;
3. **fusion** (:mod:`ingestion.search.features`, :mod:`ingestion.search.fusion`): each
   candidate's signals, scored by the model trained on the GALQA dev questions
   (``bench/retrieval.py --train-fusion``); no weight here is set by hand;
4. **order**: tiers above the model's order, each kept because a fold or a required
   behaviour shows it adds on top (docs/decisions.md): a quoted passage's chunk, then the
   unit a query names ("Pasal 5 ayat (2) PP 35/2021"), the Pasal saying when a regulation
   takes effect when that is all the question asks of it ("Kapan PP 5/2021 mulai
   berlaku?", :mod:`ingestion.legal.entry_into_force`), or the opening of a regulation named
   alone, then the named regulation's chunks and the chunks defining the whole asked term
   (both parts of "X dan Y"); an opening (cover, preamble, closing, the Penjelasan's general
   part: :func:`ingestion.search.named.is_opening`) is one tier lower than a passage of a
   body, since it gives reasons, not the rule (a document without a body has no opening).

Then the optional gateway reranker, one answer per regulation (:mod:`ingestion.search.copies`),
repealed last on request, and the wording in force (:mod:`ingestion.search.consolidated`).

When the query cannot be embedded now (gateway 429/503, local model missing) the answer is
lexical-only and says so (``degraded = "lexical_only"``); search never retries in a loop.
Visibility and editions are defined in :mod:`ingestion.search.sql`.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from django.conf import settings

from ingestion.legal.search import UnitRow, chunk_units, closing_units, first_chunks, pick_unit
from ingestion.links import safe_url
from ingestion.pipeline import embed
from ingestion.relations.read import hit_notes
from ingestion.relations.references import Passage, references_for
from ingestion.search import sql as search_sql
from ingestion.search.candidates import Embedded, Pool, gather
from ingestion.search.consolidated import current_hits
from ingestion.search.copies import one_copy_per_regulation
from ingestion.search.features import Row, rows
from ingestion.search.fusion import FusionModel, load_model
from ingestion.search.named import Scope, named_scope
from ingestion.search.phrase import quoted_chunks
from ingestion.search.query import (
    Degraded,
    Editions,
    SearchHit,
    SearchMode,
    SearchQuery,
    SearchResponse,
)
from ingestion.search.references import named_unit_rows
from ingestion.search.rerank import rerank, rerank_enabled
from ingestion.search.terms import lexical_text
from ingestion.search.understand import Asked, understand

__all__ = [
    "Editions",
    "SearchHit",
    "SearchMode",
    "SearchQuery",
    "SearchResponse",
    "SearchTuning",
    "download_url",
    "search",
]

log = logging.getLogger(__name__)

MAX_LIMIT = 100
_WHOLE = 1.0 - 1e-9  # a chunk defining the whole asked term, or every part of "X dan Y"
_URL_KEYS = ("pdf_url", "detail_url", "url")
# The tiers of the order (step 4), added to the model's score squashed into (0, 1).
QUOTED, NAMED_UNIT, NAMED_REGULATION, DEFINES, OPENING = 4.0, 3.0, 1.0, 1.0, -1.0


class QueryEmbedder(Protocol):
    model_id: str

    def embed_query(self, text: str, *, interactive: bool = True) -> list[float]: ...


@dataclass(frozen=True, slots=True)
class SearchTuning:
    """How many candidates each list proposes, and the fusion model (None: the one in
    ``SEARCH_FUSION_MODEL`` or the bundled file)."""

    candidates: int = 50
    title_min_coverage: float = 0.6
    title_candidates: int = 10
    model: FusionModel | None = None
    named_scope: bool = True  # a named regulation narrows the search (search.named)

    @classmethod
    def from_settings(cls) -> SearchTuning:
        return cls(
            candidates=settings.SEARCH_CANDIDATES,
            title_min_coverage=settings.SEARCH_TITLE_MIN_COVERAGE,
        )


@dataclass(frozen=True, slots=True)
class Prepared:
    """Steps 1–3 of one search, before any order: what training reads."""

    asked: Asked
    scope: Scope
    embedded: Embedded | None
    pool: Pool
    rows: list[Row]


def search(
    q: SearchQuery,
    *,
    embedder: QueryEmbedder | None = None,
    tuning: SearchTuning | None = None,
) -> SearchResponse:
    """Run one search. ``embedder`` defaults to the pipeline's; ``tuning`` to settings."""
    started = time.perf_counter()
    tuning = tuning or SearchTuning.from_settings()
    q = replace(q, limit=max(1, min(q.limit, MAX_LIMIT)))
    prepared = prepare(q, embedder, tuning)
    degraded = Degraded.LEXICAL_ONLY if _wanted_dense(q) and prepared.embedded is None else None
    ranked, forced, quoted = order(q, prepared, tuning.model or load_model())
    if rerank_enabled():
        reranked = rerank(prepared.asked.text, ranked, _passages(ranked), pinned=forced)
        ranked = reranked.order
        if reranked.degraded and degraded is None:
            degraded = Degraded.NO_RERANK
    ranked = one_copy_per_regulation(ranked, pinned=forced)  # one answer per regulation
    if q.include_repealed and q.in_force_first:
        ranked = repealed_last(ranked, prepared.pool, keep=set(forced), limit=q.limit)
    lexemes = list(prepared.asked.lexemes)
    hits = annotate(
        current_hits(
            q,
            ranked,
            lambda batch, cited: _hits(batch, lexemes, forced | cited, prepared.embedded),
            quoted,
        )
    )
    took_ms = (time.perf_counter() - started) * 1000
    log.info(
        "search q_len=%s mode=%s hits=%s degraded=%s took_ms=%.1f",
        len(q.text),
        q.mode,
        len(hits),
        degraded,
        took_ms,
    )
    return SearchResponse(
        results=hits,
        degraded=degraded,
        took_ms=took_ms,
        named_regulation_missing=prepared.scope.missing,
    )


def prepare(q: SearchQuery, embedder: QueryEmbedder | None, tuning: SearchTuning) -> Prepared:
    """Steps 1–3: the question read, its candidates and their signals."""
    asked = understand(q.text)
    scope = named_scope(asked.reference, q)
    if not tuning.named_scope:
        scope = Scope(missing=scope.missing)
    if scope.missing and lexical_text(asked.reference.rest):
        # Not in the corpus: the rest of the question searches the rest of the corpus.
        asked = replace(understand(asked.reference.rest), term=asked.term)
    embedded = _embed_query(asked.text, embedder) if _wanted_dense(q) and asked.text else None
    if q.mode == SearchMode.DENSE and embedded is not None:
        asked = replace(asked, lex="", lexemes=())
    pool = gather(
        asked,
        q,
        embedded,
        scope,
        size=max(tuning.candidates, q.limit),
        title_min_coverage=tuning.title_min_coverage,
        title_candidates=tuning.title_candidates,
    )
    return Prepared(asked, scope, embedded, pool, rows(pool, asked, embedded))


def order(
    q: SearchQuery, prepared: Prepared, model: FusionModel
) -> tuple[list[tuple[int, float]], dict[int, UnitRow], int]:
    """The candidates by the model's score, under the tiers of step 4 (module docstring).
    Returns the order, the units forced as citations by chunk id, and how many chunks at
    the head hold a quoted passage."""
    scope, reference = prepared.scope, prepared.asked.reference
    named = set(scope.documents)
    scored: dict[int, float] = {}
    for row in prepared.rows:
        tier = NAMED_REGULATION if row.document_id in named else 0.0
        tier += DEFINES if row.values.get("definition", 0.0) >= _WHOLE else 0.0
        tier += OPENING if row.values.get("opening") else 0.0
        scored[row.chunk_id] = tier + _squash(model.score(row.values))
    forced = dict(prepared.pool.defined)
    leading: list[tuple[int, UnitRow | None]] = []
    if reference.unit is not None and scope.documents:
        leading = [(u.chunk_id, u) for u in named_unit_rows(reference.unit, scope.documents)]
    elif scope.asks_in_force:
        leading = [(u.chunk_id, u) for u in closing_units(scope.documents)]
    elif scope.documents and not scope.beyond:
        leading = [(cid, None) for cid in first_chunks(list(scope.documents)).values()]
    for index, (chunk_id, unit) in enumerate(leading):
        scored[chunk_id] = NAMED_UNIT + 1.0 - index * 1e-3
        if unit is not None:
            forced[chunk_id] = unit
    ranked = sorted(scored.items(), key=lambda item: (-item[1], item[0]))
    quoted = quoted_chunks(q, ranked)
    if quoted:
        lead = {x.chunk_id: QUOTED + 1.0 - i * 1e-3 for i, x in enumerate(quoted)}
        ranked = [*lead.items(), *((c, s) for c, s in ranked if c not in lead)]
        forced |= {x.chunk_id: x.unit for x in quoted}
        prepared.pool.owners.update({x.chunk_id: x.document_id for x in quoted})
    return ranked, forced, len(quoted)


def _squash(score: float) -> float:
    """The model's score into (0, 1), order kept: tiers stay apart."""
    return 0.5 * (1.0 + math.tanh(score / 4.0))


def _wanted_dense(q: SearchQuery) -> bool:
    return q.mode != SearchMode.LEXICAL


def _embed_query(text: str, embedder: QueryEmbedder | None) -> Embedded | None:
    """The query vector and its model id, or ``None`` when embeddings are unavailable now."""
    try:
        model = embedder if embedder is not None else embed.get_embedder()
        return model.embed_query(text, interactive=True), model.model_id
    except embed.EmbeddingUnavailable as exc:
        log.warning("search degraded to lexical-only: %s", exc)
        return None


def _passages(fused: Sequence[tuple[int, float]]) -> dict[int, str]:
    """The reranker's passages: heading path and text of the leading candidates."""
    wanted = [chunk_id for chunk_id, _ in fused[: settings.SEARCH_RERANK_CANDIDATES * 2]]
    rows = search_sql.hydrate(wanted)
    return {cid: f"{row['heading_path']}\n{row['text']}".strip() for cid, row in rows.items()}


def repealed_last(
    ranked: list[tuple[int, float]], pool: Pool, keep: set[int], limit: int
) -> list[tuple[int, float]]:
    """In-force results first, each group in its order: a unit the query named (``keep``),
    then the rest. A repealed chunk that ranks among the first ``limit`` stays among them,
    after the in-force ones: the person asked for repealed regulations too, and one that
    says nearly what its repealer says would otherwise never be seen."""
    documents = pool.owners
    repealed = search_sql.repealed_documents(sorted(set(documents.values())))
    if not repealed:
        return ranked

    def key(index: int, item: tuple[int, float]) -> tuple[bool, bool, bool]:
        old = documents.get(item[0]) in repealed
        return (index >= limit, item[0] not in keep, old)

    return [item for _, item in sorted(enumerate(ranked), key=lambda pair: key(*pair))]


def annotate(hits: list[SearchHit]) -> list[SearchHit]:
    """Amend/repeal notes and resolved cross-references on each hit."""
    notes = hit_notes({(h.source_type, h.source_key) for h in hits if h.in_force is not None})
    references = references_for(
        [Passage(h.chunk_id, h.document_id, h.heading_path, h.text) for h in hits]
    )
    annotated = []
    for hit in hits:
        note = notes.get((hit.source_type, hit.source_key))
        annotated.append(
            replace(
                hit,
                amended_by=note.amended_by if note else [],
                repealed_by=note.repealed_by if note else [],
                references=references.get(hit.chunk_id, []),
            )
        )
    return annotated


def _hits(
    fused: Sequence[tuple[int, float]],
    lexemes: list[str],
    forced: dict[int, UnitRow],
    embedded: tuple[list[float], str] | None,
) -> list[SearchHit]:
    ids = [chunk_id for chunk_id, _score in fused]
    rows = search_sql.hydrate(ids)
    units = chunk_units(ids, lexemes, embedded)
    return [
        _with_unit(
            _hit(rows[chunk_id], score),
            rows[chunk_id],
            forced.get(chunk_id) or pick_unit(units.get(chunk_id, [])),
        )
        for chunk_id, score in fused
        if chunk_id in rows
    ]


def _with_unit(hit: SearchHit, row: dict[str, Any], unit: UnitRow | None) -> SearchHit:
    """The citation fields: the regulation's short citation and the unit the hit cites."""
    regulation = row.get("citation") or None
    if unit is None:
        return replace(hit, citation=regulation)
    citation = f"{regulation} {unit.label}" if regulation else unit.label
    return replace(
        hit,
        citation=citation,
        unit=unit.as_json(),
        unit_text=hit.text[unit.start : unit.end],
        unit_span=(unit.start, unit.end),
        unit_label=unit.label,
        unit_page=unit.page,
    )


def _hit(row: dict[str, Any], score: float) -> SearchHit:
    metadata = row["metadata"]
    if isinstance(metadata, str):  # Django's psycopg loader hands jsonb over as text
        metadata = json.loads(metadata)
    source = metadata.get("source") if isinstance(metadata.get("source"), dict) else {}
    document_id = str(row["document_id"])
    return SearchHit(
        chunk_id=row["id"],
        document_id=document_id,
        title=row["title"],
        heading_path=row["heading_path"],
        page_from=row["page_from"],
        page_to=row["page_to"],
        text=row["text"],
        score=round(score, 6),
        source_url=source_url(source, document_id),
        source_type=row["sourceType"],
        source_key=str(metadata.get("source_key", "")),
        source_version=str(metadata.get("source_version", "")),
        nomor=_opt(source.get("nomor")),
        tahun=_opt(source.get("tahun") or source.get("year")),
        jenis=_opt(source.get("jenis")),
        in_force=row.get("in_force"),
    )


def source_url(source: dict[str, Any], document_id: str) -> str:
    """The citation link: the source's own http(s) URL when it gave one, else our download."""
    for key in _URL_KEYS:
        url = safe_url(source.get(key))
        if url is not None:
            return url
    return download_url(document_id)


def download_url(document_id: str) -> str:
    return f"/documents/{document_id}/download"


def _opt(value: object) -> str | None:
    return str(value) if value not in (None, "") else None
