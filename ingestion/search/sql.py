"""The SQL behind hybrid search: one candidate query per ranked list, plus hydration.

Visibility rules, shared by every list (alias ``d`` = documents, ``c`` = chunks):

- a chunk is searchable only when ``c.indexed`` (parked chunks never appear);
- its document may be seen by the caller (:mod:`ingestion.visibility`: classification
  and source type of the caller's grant);
- its document is not ``archived`` or ``failed``. A document being re-processed keeps
  serving its current chunks until the runner replaces them;
- a repealed regulation (``d.in_force`` false) only with ``include_repealed``;
- with ``editions=latest`` only the newest edition of a source is searched: for each
  (sourceType, metadata.source_key) the visible document with at least one indexed chunk
  and the greatest ``(created_at, id)``. A newer edition still waiting for review with no
  indexed chunk yet does not hide the previous edition.

Filters compare metadata.source values case-insensitively (``tahun`` also matches
``year``; ``classification`` also matches a top-level ``metadata.classification``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from ingestion import visibility
from ingestion.models import HIDDEN_STATUSES
from ingestion.search.query import Editions, SearchQuery

_HIDDEN_SQL = ", ".join(f"'{status}'" for status in HIDDEN_STATUSES)
_VISIBLE = f"d.status NOT IN ({_HIDDEN_SQL})"

_LATEST = f"""
    NOT EXISTS (
        SELECT 1 FROM documents n
        WHERE n."sourceType" = d."sourceType"
          AND (n.metadata ->> 'source_key') = (d.metadata ->> 'source_key')
          AND n.status NOT IN ({_HIDDEN_SQL})
          AND (n.created_at, n.id) > (d.created_at, d.id)
          AND EXISTS (
              SELECT 1 FROM ingestion_chunk x WHERE x.document_id = n.id AND x.indexed
          )
    )
"""

_NOT_REPEALED = "d.in_force IS NOT FALSE"

_SRC = "(d.metadata -> 'source')"
_FILTERS: dict[str, str] = {
    "source_type": 'd."sourceType" = %(source_type)s',
    "tahun": f"coalesce({_SRC} ->> 'tahun', {_SRC} ->> 'year') = %(tahun)s",
    "wilayah": f"lower({_SRC} ->> 'wilayah') = lower(%(wilayah)s)",
    "jenis": f"lower({_SRC} ->> 'jenis') = lower(%(jenis)s)",
    "status_berlaku": f"lower({_SRC} ->> 'status_berlaku') = lower(%(status_berlaku)s)",
    "classification": (
        f"lower(coalesce({_SRC} ->> 'classification', d.metadata ->> 'classification'))"
        " = lower(%(classification)s)"
    ),
}

# The OR of the content words, stemmed and tokenized exactly as the index was.
_OR_QUERY = "replace(plainto_tsquery('indonesian', %(lex)s)::text, ' & ', ' | ')::tsquery"


@dataclass(frozen=True, slots=True)
class Candidate:
    chunk_id: int
    document_id: str
    coverage: float = 0.0  # title list only: share of the query's words in the title
    score: float = 0.0  # lexical list only: the chunk's BM25


def document_filter(query: SearchQuery) -> tuple[str, dict[str, Any]]:
    """The WHERE fragment on ``d`` for visibility, editions and the query's filters."""
    allowed, params = visibility.named_predicate("d")
    clauses = [_VISIBLE, allowed]
    if query.editions == Editions.LATEST:
        clauses.append(_LATEST)
    if not query.include_repealed:
        clauses.append(_NOT_REPEALED)
    if query.documents:
        clauses.append("d.id = ANY(%(scope_documents)s::uuid[])")
        params["scope_documents"] = list(query.documents)
    for name, clause in _FILTERS.items():
        value = getattr(query, name)
        if value is not None and str(value).strip():
            clauses.append(clause)
            params[name] = str(value).strip()
    return " AND ".join(clauses), params


def dense_candidates(
    vector: Sequence[float],
    model_id: str,
    query: SearchQuery,
    *,
    limit: int,
    ef_search: int,
) -> list[Candidate]:
    """Nearest chunks by cosine distance over the HNSW index, same embedding model only."""
    where, params = document_filter(query)
    params |= {"vec": vector_literal(vector), "model": model_id, "n": limit}
    # Filters are applied after the index scan; the iterative scan keeps walking the graph
    # until enough rows pass them, and the outer ORDER BY restores exact order.
    sql = f"""
        SELECT id, document_id FROM (
            SELECT c.id, c.document_id, c.embedding <=> %(vec)s::vector AS distance
            FROM ingestion_chunk c JOIN documents d ON d.id = c.document_id
            WHERE c.indexed AND c.embedding_model = %(model)s AND {where}
            ORDER BY c.embedding <=> %(vec)s::vector
            LIMIT %(n)s
        ) nearest ORDER BY distance, id
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('hnsw.ef_search', %s, true)", [str(ef_search)])
        cursor.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
        cursor.execute(sql, params)
        return [Candidate(row[0], str(row[1])) for row in cursor.fetchall()]


def title_candidates(
    lex: str, query: SearchQuery, *, limit: int, min_coverage: float
) -> list[Candidate]:
    """Documents whose title and title labels hold most of the query's words.

    Each comes with its first indexed chunk, the natural citation for "find me Qanun Aceh
    nomor 3 tahun 2026". Coverage is the share of distinct query lexemes in the title.
    """
    where, params = document_filter(query)
    params |= {"lex": lex, "n": limit, "min_cov": min_coverage}
    sql = f"""
        WITH q AS (SELECT {_OR_QUERY} AS q,
                          tsvector_to_array(to_tsvector('indonesian', %(lex)s)) AS lexemes),
        titled AS (
            SELECT d.id,
                   cardinality(ARRAY(
                       SELECT unnest(tsvector_to_array(d.title_search))
                       INTERSECT SELECT unnest(q.lexemes)
                   ))::float / greatest(cardinality(q.lexemes), 1) AS coverage,
                   ts_rank_cd(d.title_search, q.q) AS rank
            FROM q, documents d
            WHERE d.title_search @@ q.q AND {where}
        )
        SELECT first.id, t.id, t.coverage
        FROM titled t
        CROSS JOIN LATERAL (
            SELECT c.id FROM ingestion_chunk c
            WHERE c.document_id = t.id AND c.indexed
            ORDER BY c.ordinal LIMIT 1
        ) first
        WHERE t.coverage >= %(min_cov)s
        ORDER BY t.coverage DESC, t.rank DESC, t.id
        LIMIT %(n)s
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [Candidate(row[0], str(row[1]), float(row[2])) for row in cursor.fetchall()]


def hydrate(chunk_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """The rows a citation is built from, keyed by chunk id."""
    if not chunk_ids:
        return {}
    sql = """
        SELECT c.id, c.document_id, c.heading_path, c.page_from, c.page_to, c.text,
               d.title, d."sourceType", d.metadata, d.citation, d.in_force
        FROM ingestion_chunk c JOIN documents d ON d.id = c.document_id
        WHERE c.id = ANY(%(ids)s)
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, {"ids": list(chunk_ids)})
        columns = [col.name for col in cursor.description]
        return {row[0]: dict(zip(columns, row, strict=True)) for row in cursor.fetchall()}


def repealed_documents(document_ids: Sequence[str]) -> set[str]:
    """The documents among ``document_ids`` that are not in force."""
    if not document_ids:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM documents WHERE id = ANY(%(ids)s::uuid[]) AND in_force IS FALSE",
            {"ids": list(document_ids)},
        )
        return {str(row[0]) for row in cursor.fetchall()}


def vector_literal(vector: Sequence[float]) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in vector) + "]"
