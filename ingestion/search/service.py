"""Hybrid retrieval: one service for the API, the UI and (later) RAG answers.

Three ranked lists are fused with weighted reciprocal rank fusion (RRF,
``w / (SEARCH_RRF_K + rank)``):

- dense: cosine nearest neighbours of the query embedding over the HNSW index, restricted
  to chunks embedded by the same model as the query (vectors of two models never mix);
- lexical: BM25 over Postgres full text (``indonesian``, heading path + text) with IDF
  from the planner's statistics (:mod:`ingestion.search.lexical`);
- title: documents whose title + title labels hold most of the query's words
  (``Qanun Aceh nomor 3 tahun 2026``); their first chunk joins the candidates and every
  candidate chunk of such a document receives the title list's share.

A document whose title holds *every* content word of the query is the one the person
named: its chunks rank above all others (``NAMED_DOCUMENT_BONUS`` is added to their score,
which is otherwise the RRF sum, well below 1).

When the query cannot be embedded now (gateway 429/503, local model missing) the answer is
lexical-only and says so (``degraded = "lexical_only"``); search never retries in a loop.
Visibility and editions are defined in :mod:`ingestion.search.sql`.
"""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from django.conf import settings
from django.db import transaction

from ingestion.legal.definitions import asked_term, defining_units_of_any, definition_lists
from ingestion.legal.references import QueryReference, parse_query_reference
from ingestion.legal.search import (
    UnitRow,
    best_similarity,
    chunk_units,
    dense_unit_chunks,
    first_chunks,
    named_documents,
    named_units,
    pick_unit,
    unit_candidates,
)
from ingestion.links import safe_url
from ingestion.pipeline import embed
from ingestion.relations.read import hit_notes
from ingestion.relations.references import Passage, references_for
from ingestion.search import sql as search_sql
from ingestion.search.consolidated import current_hits
from ingestion.search.copies import one_copy_per_regulation
from ingestion.search.lexical import bm25_candidates, query_lexemes, term_coverage
from ingestion.search.named import asks_beyond_name, openings, scoped
from ingestion.search.phrase import quoted_chunks
from ingestion.search.query import (
    Degraded,
    Editions,
    SearchHit,
    SearchMode,
    SearchQuery,
    SearchResponse,
)
from ingestion.search.rerank import rerank, rerank_enabled
from ingestion.search.sql import Candidate
from ingestion.search.terms import lexical_text

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
NAMED_DOCUMENT_BONUS = 1.0
REFERENCE_BONUS = 2.0  # the unit a query names ("Pasal 5 ayat (2) PP 35/2021") leads
DEFINITION_BONUS = 1.0  # the units defining the term a definition question asks about
QUOTED_BONUS = 1.0  # above everything: the chunk holding a quoted passage word for word
_FULL_COVERAGE = 0.999
_URL_KEYS = ("pdf_url", "detail_url", "url")


class QueryEmbedder(Protocol):
    model_id: str

    def embed_query(self, text: str, *, interactive: bool = True) -> list[float]: ...


@dataclass(frozen=True, slots=True)
class SearchTuning:
    """The fusion knobs; ``from_settings()`` reads the SEARCH_* settings."""

    rrf_k: int = 60
    dense_weight: float = 1.0
    lexical_weight: float = 1.0
    title_weight: float = 1.0
    candidates: int = 50
    title_min_coverage: float = 0.6
    title_candidates: int = 10
    unit_weight: float = 0.0
    unit_dense_weight: float = 0.0
    rescore_weight: float = 0.15
    rescore_candidates: int = 20
    coverage_weight: float = 0.015
    named_scope: bool = True  # a named regulation answers from inside (search.named)

    @classmethod
    def from_settings(cls) -> SearchTuning:
        return cls(
            rrf_k=settings.SEARCH_RRF_K,
            dense_weight=settings.SEARCH_DENSE_WEIGHT,
            lexical_weight=settings.SEARCH_LEXICAL_WEIGHT,
            title_weight=settings.SEARCH_TITLE_WEIGHT,
            candidates=settings.SEARCH_CANDIDATES,
            title_min_coverage=settings.SEARCH_TITLE_MIN_COVERAGE,
            unit_weight=settings.SEARCH_UNIT_WEIGHT,
            unit_dense_weight=settings.SEARCH_UNIT_DENSE_WEIGHT,
            rescore_weight=settings.SEARCH_UNIT_RESCORE_WEIGHT,
            rescore_candidates=settings.SEARCH_UNIT_RESCORE_CANDIDATES,
            coverage_weight=settings.SEARCH_COVERAGE_WEIGHT,
        )


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
    pool = max(tuning.candidates, q.limit)
    lex = lexical_text(q.text)
    lexemes = query_lexemes(lex) if lex else []
    degraded: Degraded | None = None
    lists: dict[str, list[Candidate]] = {}
    embedded: tuple[list[float], str] | None = None
    if q.mode != SearchMode.LEXICAL:
        embedded = _embed_query(q.text, embedder)
        if embedded is None:
            degraded = Degraded.LEXICAL_ONLY
        else:
            lists["dense"] = _dense(embedded, q, pool)
            if tuning.unit_dense_weight > 0:
                lists["unit_dense"] = _unit_dense(embedded, q, pool)
    if q.mode != SearchMode.DENSE or degraded:
        lists |= _lexical(lex, q, pool, tuning)
        if tuning.unit_weight > 0:
            lists["unit"] = _unit_list(lexemes, q, pool)
    fused = fuse(lists, tuning)
    reference = parse_query_reference(q.text)
    term = asked_term(q.text, reference)
    if embedded is not None and tuning.rescore_weight > 0:
        fused = rescore(fused, embedded, tuning, lexemes, term is not None)
    fused, named, defined = _legal_order(q, reference, term, fused, lists, tuning)
    fused, quoted = _quoted_first(q, fused, lists)
    forced = defined | named | quoted
    if rerank_enabled():
        reranked = rerank(q.text, fused, _passages(fused), pinned=forced)
        fused = reranked.order
        if reranked.degraded and degraded is None:
            degraded = Degraded.NO_RERANK
    fused = one_copy_per_regulation(fused)  # one answer per regulation (search.copies)
    if q.include_repealed and q.in_force_first:
        fused = repealed_last(fused, lists, keep=set(named))
    hits = annotate(
        current_hits(q, fused, lambda batch, cited: _hits(batch, lexemes, forced | cited, embedded))
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
    return SearchResponse(results=hits, degraded=degraded, took_ms=took_ms)


def _embed_query(text: str, embedder: QueryEmbedder | None) -> tuple[list[float], str] | None:
    """The query vector and its model id, or ``None`` when embeddings are unavailable now."""
    try:
        model = embedder if embedder is not None else embed.get_embedder()
        return model.embed_query(text, interactive=True), model.model_id
    except embed.EmbeddingUnavailable as exc:
        log.warning("search degraded to lexical-only: %s", exc)
        return None


def _dense(embedded: tuple[list[float], str], q: SearchQuery, pool: int) -> list[Candidate]:
    vector, model_id = embedded
    with transaction.atomic():
        return search_sql.dense_candidates(
            vector, model_id, q, limit=pool, ef_search=max(2 * pool, 64)
        )


def _unit_dense(embedded: tuple[list[float], str], q: SearchQuery, pool: int) -> list[Candidate]:
    """Chunks ranked by their nearest embedded unit (several units of a chunk count once)."""
    vector, model_id = embedded
    with transaction.atomic():
        nearest = dense_unit_chunks(vector, model_id, q, limit=pool * 3, ef_search=6 * pool)
    ranked = dict.fromkeys(nearest)
    return [Candidate(chunk_id, document_id) for chunk_id, document_id in ranked][:pool]


def _lexical(
    lex: str, q: SearchQuery, pool: int, tuning: SearchTuning
) -> dict[str, list[Candidate]]:
    if not lex:
        return {}
    lists = {"lexical": bm25_candidates(lex, q, limit=pool)}
    if tuning.title_weight > 0:
        lists["title"] = search_sql.title_candidates(
            lex, q, limit=tuning.title_candidates, min_coverage=tuning.title_min_coverage
        )
    return lists


def _unit_list(lexemes: list[str], q: SearchQuery, pool: int) -> list[Candidate]:
    """Chunks ranked by their best legal unit (several units of a chunk count once)."""
    seen: set[int] = set()
    ranked: list[Candidate] = []
    for unit in unit_candidates(lexemes, q, limit=pool * 3):
        if unit.chunk_id not in seen:
            seen.add(unit.chunk_id)
            ranked.append(Candidate(unit.chunk_id, unit.document_id))
    return ranked[:pool]


def fuse(lists: dict[str, list[Candidate]], tuning: SearchTuning) -> list[tuple[int, float]]:
    """Weighted RRF over the lists; ``[(chunk_id, score)]`` best first, ties by chunk id.

    The title list ranks documents: its share goes to the document's first chunk (which it
    brings along) and to every other candidate chunk of that document.
    """
    weights = {
        "dense": tuning.dense_weight,
        "lexical": tuning.lexical_weight,
        "title": tuning.title_weight,
        "unit": tuning.unit_weight,
        "unit_dense": tuning.unit_dense_weight,
    }
    scores: dict[int, float] = defaultdict(float)
    documents: dict[int, str] = {}
    for name in ("dense", "lexical", "unit", "unit_dense"):
        for rank, cand in enumerate(lists.get(name, []), start=1):
            scores[cand.chunk_id] += weights[name] / (tuning.rrf_k + rank)
            documents[cand.chunk_id] = cand.document_id
    title_share: dict[str, float] = {}
    for rank, cand in enumerate(lists.get("title", []), start=1):
        title_share[cand.document_id] = weights["title"] / (tuning.rrf_k + rank)
        if cand.coverage >= _FULL_COVERAGE:
            title_share[cand.document_id] += NAMED_DOCUMENT_BONUS
        documents.setdefault(cand.chunk_id, cand.document_id)
        scores.setdefault(cand.chunk_id, 0.0)
    for chunk_id, document_id in documents.items():
        scores[chunk_id] += title_share.get(document_id, 0.0)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def rescore(
    fused: list[tuple[int, float]],
    embedded: tuple[list[float], str],
    tuning: SearchTuning,
    lexemes: Sequence[str] = (),
    definition_question: bool = False,
) -> list[tuple[int, float]]:
    """The leading candidates re-scored by their best semantic match, chunk or legal unit,
    and by how much of the query's vocabulary they hold.

    ``score + rescore_weight × max(cosine(chunk), cosine(best embedded unit))
    + coverage_weight × term coverage`` for the first ``rescore_candidates``: a question about
    one huruf is close to that huruf even when the whole Pasal is not, and of two
    neighbouring Pasal the one holding the question's rare words is the one it paraphrases
    (:func:`ingestion.search.lexical.term_coverage`). A list of definitions holds every term
    of its regulation, so unless the question asks for a definition its coverage says
    nothing and is not counted. The rest keep their fused order below.
    """
    head = fused[: tuning.rescore_candidates]
    ids = [chunk_id for chunk_id, _ in head]
    vector, model_id = embedded
    similarity = best_similarity(ids, vector, model_id)
    if not similarity:
        return fused
    floor = min(similarity.values())
    coverage = term_coverage(ids, list(lexemes)) if tuning.coverage_weight > 0 else {}
    if coverage and not definition_question:
        for chunk_id in definition_lists(ids):
            coverage.pop(chunk_id, None)
    scored = [
        (
            chunk_id,
            score
            + tuning.rescore_weight * similarity.get(chunk_id, floor)
            + tuning.coverage_weight * coverage.get(chunk_id, 0.0),
        )
        for chunk_id, score in head
    ]
    scored.sort(key=lambda item: (-item[1], item[0]))
    return scored + list(fused[tuning.rescore_candidates :])


def _passages(fused: Sequence[tuple[int, float]]) -> dict[int, str]:
    """The reranker's passages: heading path and text of the leading candidates."""
    wanted = [chunk_id for chunk_id, _ in fused[: settings.SEARCH_RERANK_CANDIDATES * 2]]
    rows = search_sql.hydrate(wanted)
    return {cid: f"{row['heading_path']}\n{row['text']}".strip() for cid, row in rows.items()}


def repealed_last(
    fused: list[tuple[int, float]], lists: dict[str, list[Candidate]], keep: set[int]
) -> list[tuple[int, float]]:
    """In-force results first: chunks of repealed regulations keep their order, after —
    except a unit the query named (``keep``), which the person asked for by name."""
    documents = {c.chunk_id: c.document_id for found in lists.values() for c in found}
    repealed = search_sql.repealed_documents(sorted(set(documents.values())))
    if not repealed:
        return fused
    return sorted(
        fused, key=lambda item: item[0] not in keep and documents.get(item[0]) in repealed
    )


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


def _legal_order(
    q: SearchQuery,
    reference: QueryReference,
    term: list[str] | None,
    fused: list[tuple[int, float]],
    lists: dict[str, list[Candidate]],
    tuning: SearchTuning | None = None,
) -> tuple[list[tuple[int, float]], dict[int, UnitRow], dict[int, UnitRow]]:
    """The legal steps after fusion: a definition question's defining units lead, then a
    named unit and regulation (:func:`_apply_reference`) lead those. Returns the order, the
    units the query named and the defining units, each by chunk id."""
    fused, defined = _apply_definition(q, term, fused, lists)
    # A defining chunk may come from outside the candidates: later steps (a named
    # regulation's boost, repealed-last) look its document up like any candidate's.
    lists["definition"] = [Candidate(u.chunk_id, u.document_id) for u in defined.values()]
    fused, named = _apply_reference(reference, q, fused, lists, tuning or SearchTuning())
    return fused, named, defined


def _quoted_first(
    q: SearchQuery, fused: list[tuple[int, float]], lists: dict[str, list[Candidate]]
) -> tuple[list[tuple[int, float]], dict[int, UnitRow]]:
    """A query that is a passage of a chunk, word for word, is answered by that chunk
    first, citing the unit that holds the passage (:mod:`ingestion.search.phrase`)."""
    quoted = quoted_chunks(q, fused)
    if not quoted:
        return fused, {}
    lists["quoted"] = [Candidate(x.chunk_id, x.document_id) for x in quoted]
    top = max((score for _, score in fused), default=0.0) + QUOTED_BONUS
    lead = {x.chunk_id: top - index * 1e-3 for index, x in enumerate(quoted)}
    ranked = [(cid, lead[cid]) for cid in lead] + [(c, s) for c, s in fused if c not in lead]
    return ranked, {x.chunk_id: x.unit for x in quoted}


def _apply_definition(
    q: SearchQuery,
    term: list[str] | None,
    fused: list[tuple[int, float]],
    lists: dict[str, list[Candidate]],
) -> tuple[list[tuple[int, float]], dict[int, UnitRow]]:
    """A definition question ("Apa yang dimaksud dengan X?") ranks the chunks whose units
    define X first, in their fused order (one not among the candidates after those), and
    cites those units. A regulation the question names is not part of the term ("… dalam PP
    44/2015"); the reference step then puts that regulation's definition first.
    Returns the re-ranked list and the cited units by chunk id."""
    documents = sorted({c.document_id for ranked in lists.values() for c in ranked})
    units = defining_units_of_any(term, q, documents) if term else []
    if not units:
        return fused, {}
    cited: dict[int, UnitRow] = {}
    for unit in units:
        cited.setdefault(unit.chunk_id, unit)
    scores = dict(fused)
    ranked = [
        (chunk_id, score + DEFINITION_BONUS if chunk_id in cited else score)
        for chunk_id, score in fused
    ]
    ranked += [(chunk_id, DEFINITION_BONUS) for chunk_id in cited if chunk_id not in scores]
    return sorted(ranked, key=lambda item: (-item[1], item[0])), cited


def _apply_reference(
    reference: QueryReference,
    q: SearchQuery,
    fused: list[tuple[int, float]],
    lists: dict[str, list[Candidate]],
    tuning: SearchTuning,
) -> tuple[list[tuple[int, float]], dict[int, UnitRow]]:
    """A named regulation's chunks rank first; a named unit comes before everything.
    A question asking something of the regulation it names is answered from inside it,
    never by its opening (:mod:`ingestion.search.named`).

    Returns the re-ranked list and the units forced as citations, by chunk id.
    """
    if not reference.names_something:
        return fused, {}
    documents = named_documents(reference, q)
    if not documents:
        return fused, {}
    named = set(documents)
    owner = {c.chunk_id: c.document_id for ranked in lists.values() for c in ranked}
    rest = asks_beyond_name(reference) if tuning.named_scope else ""
    cover = openings([c for c, _ in fused if owner.get(c) in named]) if rest else set()
    ranked = [
        (chunk_id, score + NAMED_DOCUMENT_BONUS if owner.get(chunk_id) in named else score)
        if chunk_id not in cover
        else (chunk_id, score)
        for chunk_id, score in fused
    ]
    if rest:
        inside, found = scoped(rest, documents, NAMED_DOCUMENT_BONUS, tuning.rrf_k)
        lists["named"] = [Candidate(c, d) for c, d in inside.items()]
        owner |= inside
        ranked += found
    present = {owner.get(chunk_id) for chunk_id, _ in ranked}
    missing = [d for d in documents if d not in present]
    ranked += [(chunk_id, NAMED_DOCUMENT_BONUS) for chunk_id in first_chunks(missing).values()]
    forced: dict[int, UnitRow] = {}
    if reference.unit is not None:
        top = max((score for _, score in ranked), default=0.0)
        for index, unit in enumerate(named_units(reference.unit, documents)):
            forced.setdefault(unit.chunk_id, unit)
            ranked.append((unit.chunk_id, top + REFERENCE_BONUS - index * 1e-3))
    best: dict[int, float] = {}
    for chunk_id, score in ranked:
        best[chunk_id] = max(score, best.get(chunk_id, score))
    return sorted(best.items(), key=lambda item: (-item[1], item[0])), forced


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
