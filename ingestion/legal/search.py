"""Unit-level search: BM25 over legal units, and the unit each search hit cites.

Units (ayat, huruf, angka; :class:`ingestion.models.LegalUnit`) are short, so a question
about one huruf matches that huruf far better than the whole Pasal chunk does. Their
lexical index reads the unit text with its ``context`` (heading path and the lead-in of its
parents). IDF comes from the chunk statistics (:func:`ingestion.search.lexical.term_stats`):
the vocabulary is the same and units add no statistics to maintain.

- :func:`pick_unit` chooses, for each hit chunk, the unit it cites: the best-scoring unit
  of that chunk, preferring the finer unit when it scores nearly as well as its parent;
- :func:`named_documents` / :func:`named_units` resolve a reference query
  (:mod:`ingestion.legal.references`): the regulation by its stored short citation or by
  the words of its title, the unit by its address.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from ingestion.legal.citation import RegulationRef, canonical_jenis
from ingestion.legal.entry_into_force import FORMULA
from ingestion.legal.references import QueryReference, RegulationName, UnitRef
from ingestion.search.lexical import BM25_B, BM25_K1, held_terms, term_stats
from ingestion.search.query import SearchQuery
from ingestion.search.sql import document_filter, vector_literal

# A finer unit is cited instead of its parent when its cosine similarity is at most this far
# below the parent's (lexical-only: when its BM25 keeps this share of the parent's).
# Measured on the GALQA dev split (docs/decisions.md, "Unit-level search").
FINER_UNIT_MARGIN = 0.02
FINER_UNIT_SHARE = 0.6
_AVG_MAX_AGE_SECONDS = 300.0


@dataclass(frozen=True, slots=True)
class UnitRow:
    id: int
    chunk_id: int
    document_id: str
    kind: str
    label: str
    pasal: str
    ayat: str
    huruf: str
    angka: str
    depth: int
    penjelasan: bool
    start: int
    end: int
    page: int
    score: float = 0.0
    similarity: float | None = None  # cosine similarity to the query, embedded units only

    def as_json(self) -> dict[str, str | None]:
        return {
            "pasal": self.pasal,
            "ayat": self.ayat or None,
            "huruf": self.huruf or None,
            "angka": self.angka or None,
        }

    def contains(self, other: UnitRow) -> bool:
        return self.start <= other.start and other.end <= self.end and self.depth < other.depth


_avg: tuple[float, float] | None = None
_avg_lock = threading.Lock()


def average_unit_length() -> float:
    """Mean distinct lexemes per unit (BM25's length norm); cached a few minutes."""
    global _avg
    with _avg_lock:
        if _avg is not None and time.monotonic() - _avg[0] < _AVG_MAX_AGE_SECONDS:
            return _avg[1]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT avg(length(search_vector)) FROM "
            "(SELECT search_vector FROM ingestion_legalunit WHERE depth > 0 LIMIT 20000) s"
        )
        value = cursor.fetchone()[0]
    average = float(value) if value else 20.0
    with _avg_lock:
        _avg = (time.monotonic(), average)
    return average


# The columns a UnitRow is read from (then page and score, see _unit).
UNIT_COLUMNS = (
    "u.id, u.chunk_id, u.document_id, u.kind, u.label, u.pasal, u.ayat, u.huruf, u.angka, "
    "u.depth, u.penjelasan, u.start, u.end"
)
_SCORE = """
    CROSS JOIN LATERAL (
        SELECT coalesce(sum(
            (%(idfs)s::float8[])[array_position(%(terms)s::text[], t.lexeme)]
            * cardinality(t.positions) * (%(k1)s + 1)
            / (cardinality(t.positions)
               + %(k1)s * (1 - %(b)s + %(b)s * greatest(length(cand.search_vector), 1) / %(avg)s))
        ), 0) AS score
        FROM {held} t
        WHERE t.lexeme = ANY(%(terms)s::text[])
    ) scored
""".format(held=held_terms("cand.search_vector"))
_CHUNK_UNITS_SQL = (
    """
    WITH cand AS (SELECT u.* FROM ingestion_legalunit u WHERE u.chunk_id = ANY(%(ids)s))
    SELECT """
    + UNIT_COLUMNS.replace("u.", "cand.")
    + ", cand.page, scored.score, "
    + "CASE WHEN cand.embedding_model = %(model)s "
    + "THEN 1 - (cand.embedding <=> %(vec)s::vector) END FROM cand"
    + _SCORE
    + " ORDER BY cand.chunk_id, cand.start, cand.end DESC"
)


def _bm25_params(lexemes: list[str]) -> dict[str, Any]:
    stats = term_stats()
    return {
        "terms": lexemes,
        "idfs": [stats.idf(t) for t in lexemes],
        "k1": BM25_K1,
        "b": BM25_B,
        "avg": average_unit_length(),
    }


def _unit(r: Sequence[Any], similarity: Any = None) -> UnitRow:
    """A unit from the ``UNIT_COLUMNS``, page and score columns of a row."""
    return UnitRow(
        id=r[0],
        chunk_id=r[1],
        document_id=str(r[2]),
        kind=r[3],
        label=r[4],
        pasal=r[5],
        ayat=r[6],
        huruf=r[7],
        angka=r[8],
        depth=r[9],
        penjelasan=r[10],
        start=r[11],
        end=r[12],
        page=r[13],
        score=float(r[14] or 0.0),
        similarity=float(similarity) if similarity is not None else None,
    )


def _rows(sql: str, params: dict[str, Any]) -> list[UnitRow]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [_unit(r, r[15] if len(r) > 15 else None) for r in cursor.fetchall()]


def unit_rows(sql: str, params: dict[str, Any]) -> list[tuple[UnitRow, str]]:
    """Units with the text column that follows their score (``UNIT_COLUMNS``, page, score, text)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [(_unit(r), str(r[15])) for r in cursor.fetchall()]


def chunk_units(
    chunk_ids: Sequence[int],
    lexemes: list[str],
    embedded: tuple[Sequence[float], str] | None = None,
) -> dict[int, list[UnitRow]]:
    """Every unit of these chunks with its BM25 score for the query (0 without lexemes) and,
    when the query was embedded, its cosine similarity."""
    if not chunk_ids:
        return {}
    vector, model = embedded if embedded is not None else ([0.0], "")
    params = _bm25_params(lexemes) | {
        "ids": list(chunk_ids),
        "vec": vector_literal(vector) if embedded else "[0]",
        "model": model if embedded else "-",  # no model is named "-": no similarity
    }
    grouped: dict[int, list[UnitRow]] = {}
    for row in _rows(_CHUNK_UNITS_SQL, params):
        grouped.setdefault(row.chunk_id, []).append(row)
    return grouped


def pick_unit(units: Sequence[UnitRow]) -> UnitRow | None:
    """The unit a hit cites: the embedded unit nearest the query, descending into a child
    while it stays within ``FINER_UNIT_MARGIN`` of its parent's similarity.

    Without vectors (lexical-only search) the same walk runs on BM25 scores, a child
    keeping ``FINER_UNIT_SHARE`` of its parent's; with no match at all the Pasal is cited.
    """
    if not units:
        return None
    embedded = [u for u in units if u.similarity is not None]
    if embedded:
        best = max(embedded, key=lambda u: (_similarity(u), -u.depth))
        return _descend(best, embedded, _similarity, lambda v: v - FINER_UNIT_MARGIN)
    best = max(units, key=lambda u: (u.score, -u.depth))
    if best.score <= 0:
        return min(units, key=lambda u: u.depth)
    return _descend(best, units, lambda u: u.score, lambda v: v * FINER_UNIT_SHARE)


def _similarity(unit: UnitRow) -> float:
    return unit.similarity if unit.similarity is not None else 0.0


def _descend(
    current: UnitRow,
    units: Sequence[UnitRow],
    value: Callable[[UnitRow], float],
    keeps_up: Callable[[float], float],
) -> UnitRow:
    """Down to the best child while it reaches ``keeps_up(value of its parent)``."""
    while True:
        children = [u for u in units if current.contains(u) and u.depth == current.depth + 1]
        child = max(children, key=value, default=None)
        if child is None or value(child) < keeps_up(value(current)):
            return current
        current = child


# --- reference-aware queries ---------------------------------------------------------------


def _citation_clause(ref: RegulationRef) -> tuple[str, dict[str, Any]] | None:
    short = ref.short
    if short is None or ref.nomor is None:
        return None
    if ref.tahun:
        return "lower(d.citation) = lower(%(short)s)", {"short": short}
    return "lower(d.citation) LIKE lower(%(prefix)s)", {"prefix": f"{short}/%"}


def _name_clause(name: RegulationName) -> tuple[str, dict[str, Any]]:
    """Every word of the name in the title or its labels, and a citation of that jenis."""
    jenis = canonical_jenis(name.jenis)
    params: dict[str, Any] = {"abbr": f"{jenis.abbr if jenis else name.jenis} %"}
    clauses = ["lower(d.citation) LIKE lower(%(abbr)s)"]
    haystack = "lower(replace(d.title || ' ' || d.title_labels, '_', ' '))"
    for index, word in enumerate(name.name.split()):
        params[f"w{index}"] = f"%{word.lower()}%"
        clauses.append(f"{haystack} LIKE %(w{index})s")
    return " AND ".join(clauses), params


def named_documents(reference: QueryReference, query: SearchQuery) -> list[str]:
    """The visible documents of the regulation a query names (by number, else by name)."""
    clause: tuple[str, dict[str, Any]] | None = None
    if reference.regulation is not None:
        clause = _citation_clause(reference.regulation)
    elif reference.name is not None:
        clause = _name_clause(reference.name)
    if clause is None:
        return []
    where, params = document_filter(query)
    sql = f"SELECT d.id FROM documents d WHERE {clause[0]} AND {where} ORDER BY d.created_at DESC"
    with connection.cursor() as cursor:
        cursor.execute(sql + " LIMIT 20", params | clause[1])
        return [str(row[0]) for row in cursor.fetchall()]


def named_units(
    unit: UnitRef, document_ids: Sequence[str], *, penjelasan: bool = False
) -> list[UnitRow]:
    """The named unit in each named document (body text, first chunk that holds it; with
    ``penjelasan``, the Penjelasan of that unit instead).

    ``ayat (1)`` of a Pasal that has no ayat is its undivided body: readers (and GALQA's
    labels) number a lone paragraph 1, so "Pasal 8 ayat (1) huruf e" finds Pasal 8 huruf e.
    """
    if not document_ids:
        return []
    sql = (
        "WITH cand AS (SELECT DISTINCT ON (u.document_id) u.* FROM ingestion_legalunit u "
        "JOIN ingestion_chunk c ON c.id = u.chunk_id "
        "WHERE u.document_id = ANY(%(docs)s::uuid[]) AND c.indexed AND u.penjelasan = %(pj)s "
        "AND u.pasal = %(pasal)s AND (u.ayat = %(ayat)s OR (%(ayat)s = '1' AND u.ayat = '' "
        "AND NOT EXISTS (SELECT 1 FROM ingestion_legalunit a WHERE a.document_id = u.document_id "
        "AND a.pasal = u.pasal AND a.ayat <> '' AND a.penjelasan = %(pj)s))) "
        "AND u.huruf = %(huruf)s AND u.angka = %(angka)s "
        "ORDER BY u.document_id, c.ordinal, u.start) "
        "SELECT " + UNIT_COLUMNS.replace("u.", "cand.") + ", cand.page, 0.0 FROM cand"
    )
    params = {
        "docs": list(document_ids),
        "pasal": unit.pasal,
        "ayat": unit.ayat or "",
        "huruf": unit.huruf or "",
        "angka": unit.angka or "",
        "pj": penjelasan,
    }
    return in_document_order(_rows(sql, params), document_ids)


def closing_units(document_ids: Sequence[str]) -> list[UnitRow]:
    """Each document's Pasal that says when it takes effect (:mod:`.entry_into_force`): the
    last in the body that states the formula."""
    if not document_ids:
        return []
    sql = (
        "WITH cand AS (SELECT DISTINCT ON (u.document_id) u.* FROM ingestion_legalunit u "
        "JOIN ingestion_chunk c ON c.id = u.chunk_id "
        "WHERE u.document_id = ANY(%(docs)s::uuid[]) AND c.indexed AND NOT u.penjelasan "
        "AND u.depth = 0 AND u.text ~* %(formula)s "
        "ORDER BY u.document_id, c.ordinal DESC, u.start DESC) "
        "SELECT " + UNIT_COLUMNS.replace("u.", "cand.") + ", cand.page, 0.0 FROM cand"
    )
    return in_document_order(
        _rows(sql, {"docs": list(document_ids), "formula": FORMULA}), document_ids
    )


def in_document_order(rows: Sequence[UnitRow], document_ids: Sequence[str]) -> list[UnitRow]:
    """``rows`` in the order their documents were named."""
    order = {doc: index for index, doc in enumerate(document_ids)}
    return sorted(rows, key=lambda r: order.get(r.document_id, len(order)))


def first_chunks(document_ids: Sequence[str]) -> dict[str, int]:
    """Each document's first searchable chunk (where a regulation named alone is cited)."""
    if not document_ids:
        return {}
    sql = (
        "SELECT DISTINCT ON (document_id) document_id, id FROM ingestion_chunk "
        "WHERE document_id = ANY(%(docs)s::uuid[]) AND indexed ORDER BY document_id, ordinal"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, {"docs": list(document_ids)})
        return {str(row[0]): row[1] for row in cursor.fetchall()}
