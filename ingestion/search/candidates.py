"""The candidates of one question: every chunk any signal proposes, gathered once.

- dense: cosine nearest neighbours of the query vector (HNSW, same embedding model only);
- lexical: BM25 over Postgres full text (:mod:`ingestion.search.lexical`);
- title: documents whose title and title labels hold most of the query's words, with their
  first chunk (``Qanun Aceh nomor 3 tahun 2026``);
- inside a named regulation (:mod:`ingestion.search.named`), the same dense and lexical
  search again, restricted to it, for the words beyond its name: the corpus-wide lists may
  not reach its answer;
- definitions: the units of the candidates' regulations that define the term a definition
  question asks about (:mod:`ingestion.legal.definitions`), with the share of the asked
  term's parts ("X dan Y") each chunk defines, also read from the text of a chunk whose
  "Pasal 1" OCR left unread (no units to look in).

How much each proposal counts is the fusion model's business (:mod:`ingestion.search.fusion`);
this module only says who is proposed, and by which list at which rank.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.db import connection, transaction

from ingestion.legal.definitions import (
    MIN_MATCH,
    defined_terms,
    defining_units,
    match_score,
    term_parts,
)
from ingestion.legal.search import UnitRow
from ingestion.search import sql as search_sql
from ingestion.search.lexical import bm25_candidates, bm25_within
from ingestion.search.named import Scope
from ingestion.search.query import SearchQuery
from ingestion.search.sql import Candidate
from ingestion.search.terms import lexical_text
from ingestion.search.understand import Asked

SCOPED_CANDIDATES = 20
TEXT_DEFINITION_CANDIDATES = 20  # chunks whose text is read for a definition without units
# A numbered item at a line start, OCR's "l." and "I." included: "3. Pemberi Kerja adalah".
_ITEM = re.compile(r"(?m)^\s*(?:\d{1,3}|[lI]\d?|\d[lIO])\s*[.)]\s+")

Embedded = tuple[list[float], str]


@dataclass(slots=True)
class Pool:
    """The lists that proposed chunks, in their own order, and who owns each chunk."""

    dense: list[Candidate] = field(default_factory=list)
    lexical: list[Candidate] = field(default_factory=list)
    title: list[Candidate] = field(default_factory=list)
    scoped_dense: list[Candidate] = field(default_factory=list)
    scoped_lexical: list[Candidate] = field(default_factory=list)
    definition: dict[int, float] = field(default_factory=dict)  # chunk → share of the term
    defined: dict[int, UnitRow] = field(default_factory=dict)  # chunk → the unit it cites
    owners: dict[int, str] = field(default_factory=dict)

    def own(self, found: Sequence[Candidate]) -> list[Candidate]:
        for cand in found:
            self.owners.setdefault(cand.chunk_id, cand.document_id)
        return list(found)

    def chunk_ids(self) -> list[int]:
        return list(self.owners)


def gather(
    asked: Asked,
    q: SearchQuery,
    embedded: Embedded | None,
    scope: Scope,
    *,
    size: int,
    title_min_coverage: float,
    title_candidates: int,
) -> Pool:
    pool = Pool()
    if embedded is not None:
        pool.dense = pool.own(_dense(embedded, q, size))
    if asked.lex:
        pool.lexical = pool.own(bm25_candidates(asked.lex, q, limit=size))
        pool.title = pool.own(
            search_sql.title_candidates(
                asked.lex, q, limit=title_candidates, min_coverage=title_min_coverage
            )
        )
    if scope.documents and scope.beyond:
        inside = replace(q, documents=scope.documents)
        if embedded is not None:
            pool.scoped_dense = pool.own(_dense(embedded, inside, SCOPED_CANDIDATES))
        rest = lexical_text(asked.reference.rest)
        if rest:
            found = bm25_within(rest, scope.documents, limit=SCOPED_CANDIDATES)
            pool.scoped_lexical = pool.own(found)
    if asked.term:
        _definitions(pool, asked.term, q, scope)
    return pool


def _dense(embedded: Embedded, q: SearchQuery, size: int) -> list[Candidate]:
    vector, model_id = embedded
    with transaction.atomic():
        return search_sql.dense_candidates(
            vector, model_id, q, limit=size, ef_search=max(2 * size, 64)
        )


def _definitions(pool: Pool, term: list[str], q: SearchQuery, scope: Scope) -> None:
    """The chunks defining the asked term (or each of its parts, "X dan Y"), in the
    candidates' regulations; a chunk defining every part scores 1."""
    documents = sorted(set(pool.owners.values()) | set(scope.documents))
    parts = [term]
    units = defining_units(term, q, documents)
    if not units:
        parts = term_parts(term) or parts
    for part in parts:
        found = units if part is term else defining_units(part, q, documents)
        for chunk_id in {u.chunk_id for u in found}:
            pool.definition[chunk_id] = pool.definition.get(chunk_id, 0.0) + 1.0 / len(parts)
        for unit in found:
            pool.defined.setdefault(unit.chunk_id, unit)
            pool.owners.setdefault(unit.chunk_id, unit.document_id)
    _definitions_in_text(pool, parts)


def _definitions_in_text(pool: Pool, parts: Sequence[Sequence[str]]) -> None:
    """A definition list whose "Pasal 1" OCR damaged has no units: its numbered items are
    read from the text of the leading candidates that define nothing yet."""
    leading = [c.chunk_id for c in (*pool.dense, *pool.lexical)][: 2 * TEXT_DEFINITION_CANDIDATES]
    todo = [cid for cid in dict.fromkeys(leading) if cid not in pool.definition]
    todo = todo[:TEXT_DEFINITION_CANDIDATES]
    if not todo or not parts:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.id, c.text FROM ingestion_chunk c WHERE c.id = ANY(%(ids)s) "
            "AND NOT EXISTS (SELECT 1 FROM ingestion_legalunit u WHERE u.chunk_id = c.id "
            "AND u.depth > 0)",
            {"ids": todo},
        )
        rows = cursor.fetchall()
    for chunk_id, text in rows:
        share = sum(_defines_in_text(text, part) for part in parts) / len(parts)
        if share > 0:
            pool.definition[chunk_id] = share


def _defines_in_text(text: str, term: Sequence[str]) -> bool:
    items = _ITEM.split(text)[1:]
    return any(
        match_score(term, defined) >= MIN_MATCH for item in items for defined in defined_terms(item)
    )
