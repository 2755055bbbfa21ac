"""The signals of every candidate of one question: the learned fusion's columns.

One row per candidate chunk, read in a few queries whatever the number of candidates:

- ``dense_rank``, ``lexical_rank``, ``scoped_rank``: where the dense list, the BM25 list
  and the search inside a named regulation placed it, as ``1 / (1 + (rank - 1) / 10)``
  (1 for the first, 0 when that list did not propose it). Ranks, not raw scores, so a new
  embedding engine moves these columns little;
- ``bm25``: its BM25 over the query's best (0–1);
- ``cosine``: the chunk's own cosine to the query; ``unit_cosine``: the best of it and of
  its embedded legal units' (a question about one huruf is close to that huruf);
- ``title``: ``1 / rank`` of its document in the title list; ``title_full``: that title
  holds every content word of the query (the person named the document);
- ``coverage``: the IDF-weighted share of the query's lexemes it holds
  (:func:`ingestion.search.lexical.term_coverage`), and ``list_coverage`` the same for a
  list of definitions (a Ketentuan Umum holds every term of its regulation, so its
  coverage means less unless the question asks for a definition);
- ``definition``: the share of the asked term's parts it defines; ``definition_list``: it
  is a list of definitions and the question asks for one;
- ``opening``: it sits outside the body of a document that has one (cover, preamble,
  closing, the Penjelasan's general part; not an annex; :mod:`.named`);
- ``section_unasked``: the IDF-weighted share of the words of its section titles (the
  heading path above its Pasal, labels included: "BAB I KETENTUAN UMUM", "Bagian Ketujuh
  Sektor Perindustrian", "PENJELASAN") that the question does not hold. A regulation
  restates a general rule in each sector's section; a question that names no sector asks
  for the general one. A chunk with no title above its Pasal scores 0;
- ``section_asked``: the IDF-weighted share of the question's words its section titles
  hold. ``coverage`` counts a word whether the Pasal or only its heading holds it; beside
  it, this tells the two apart.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from ingestion.legal.definitions import definition_lists
from ingestion.legal.units import above_pasal
from ingestion.search.candidates import Embedded, Pool
from ingestion.search.lexical import term_coverage, term_stats
from ingestion.search.named import is_opening, with_body
from ingestion.search.sql import Candidate, vector_literal
from ingestion.search.understand import Asked

FEATURES: tuple[str, ...] = (
    "dense_rank",
    "lexical_rank",
    "scoped_rank",
    "bm25",
    "cosine",
    "unit_cosine",
    "title",
    "title_full",
    "coverage",
    "list_coverage",
    "definition",
    "definition_list",
    "opening",
    "section_unasked",
    "section_asked",
)
RANK_SCALE = 10.0
_FULL_COVERAGE = 0.999


@dataclass(frozen=True, slots=True)
class Row:
    chunk_id: int
    document_id: str
    heading_path: str
    values: dict[str, float]


_SIGNALS_SQL = """
    SELECT c.id, c.document_id, c.heading_path,
           CASE WHEN c.embedding_model = %(model)s
                THEN 1 - (c.embedding <=> %(vec)s::vector) END,
           (SELECT max(1 - (u.embedding <=> %(vec)s::vector)) FROM ingestion_legalunit u
             WHERE u.chunk_id = c.id AND u.embedding_model = %(model)s)
    FROM ingestion_chunk c WHERE c.id = ANY(%(ids)s)
"""


def rows(pool: Pool, asked: Asked, embedded: Embedded | None) -> list[Row]:
    """Every candidate's signals (see the module docstring)."""
    ids = pool.chunk_ids()
    if not ids:
        return []
    read = _read(ids, asked, embedded)
    lists = cached_definition_lists(ids)
    ranks = {
        "dense_rank": _ranks(pool.dense),
        "lexical_rank": _ranks(pool.lexical),
        "scoped_rank": _best(_ranks(pool.scoped_dense), _ranks(pool.scoped_lexical)),
    }
    top_bm25 = max((c.score for c in pool.lexical), default=0.0) or 1.0
    bm25 = {c.chunk_id: c.score / top_bm25 for c in pool.lexical}
    titles = _titles(pool.title)
    asks_definition = float(asked.term is not None)
    bodied = with_body({s.document_id for s in read.values() if is_opening(s.heading)})
    out = []
    idf = _idf(asked.lexemes, [signal.section for signal in read.values()])
    asked_words = set(asked.lexemes)
    for chunk_id, signal in read.items():
        document_id, heading = signal.document_id, signal.heading
        is_list = float(chunk_id in lists)
        title_rank, title_full = titles.get(document_id, (0.0, 0.0))
        values = {name: ranking.get(chunk_id, 0.0) for name, ranking in ranks.items()}
        values |= {
            "bm25": bm25.get(chunk_id, 0.0),
            "cosine": signal.cosine,
            "unit_cosine": max(signal.cosine, signal.unit_cosine),
            "title": title_rank,
            "title_full": title_full,
            "coverage": signal.coverage,
            "list_coverage": signal.coverage * is_list,
            "definition": pool.definition.get(chunk_id, 0.0),
            "definition_list": is_list * asks_definition,
            "opening": float(document_id in bodied and is_opening(heading)),
            **_section(signal.section, asked_words, idf),
        }
        out.append(Row(chunk_id, document_id, heading, values))
    return out


def _ranks(found: Sequence[Candidate]) -> dict[int, float]:
    """``1 / (1 + (rank - 1) / RANK_SCALE)`` by chunk (its first place in the list)."""
    out: dict[int, float] = {}
    for rank, cand in enumerate(found):
        out.setdefault(cand.chunk_id, 1.0 / (1.0 + rank / RANK_SCALE))
    return out


def _best(*rankings: dict[int, float]) -> dict[int, float]:
    out: dict[int, float] = {}
    for ranking in rankings:
        for chunk_id, value in ranking.items():
            out[chunk_id] = max(out.get(chunk_id, 0.0), value)
    return out


def _titles(found: Sequence[Candidate]) -> dict[str, tuple[float, float]]:
    out: dict[str, tuple[float, float]] = {}
    for rank, cand in enumerate(found, start=1):
        full = 1.0 if cand.coverage >= _FULL_COVERAGE else 0.0
        out.setdefault(cand.document_id, (1.0 / rank, full))
    return out


@dataclass(frozen=True, slots=True)
class _Read:
    document_id: str
    heading: str
    cosine: float
    unit_cosine: float  # the best of its embedded units'
    coverage: float
    section: tuple[str, ...]  # the lexemes of its section titles


def _read(ids: list[int], asked: Asked, embedded: Embedded | None) -> dict[int, _Read]:
    """What one query reads of each candidate chunk."""
    vector, model = embedded if embedded is not None else ([0.0], "-")
    params: dict[str, Any] = {"ids": ids, "vec": vector_literal(vector), "model": model}
    with connection.cursor() as cursor:
        cursor.execute(_SIGNALS_SQL, params)
        fetched = cursor.fetchall()
    coverage = term_coverage(ids, list(asked.lexemes))
    sections = _lexemes({above_pasal(row[2] or "") for row in fetched})
    return {
        row[0]: _Read(
            str(row[1]),
            row[2] or "",
            _num(row[3]),
            _num(row[4]),
            coverage.get(row[0], 0.0),
            sections[above_pasal(row[2] or "")],
        )
        for row in fetched
    }


_LEXEMES_SQL = """
    SELECT t, array(SELECT lexeme FROM unnest(to_tsvector('indonesian', t)))
    FROM unnest(%s::text[]) t
"""
_titles_lexemes: dict[str, tuple[str, ...]] = {}
_titles_lock = threading.Lock()
_TITLES_CACHE = 50_000  # a regulation's section titles repeat over all its Pasal


def _lexemes(texts: set[str]) -> dict[str, tuple[str, ...]]:
    """Each text's lexemes, as the chunks' ``search_vector`` holds them; remembered, so a
    search seldom asks Postgres (the titles of one question's candidates recur)."""
    with _titles_lock:
        known = {t: _titles_lexemes[t] for t in texts if t in _titles_lexemes}
    todo = sorted(texts - known.keys())
    if todo:
        with connection.cursor() as cursor:
            cursor.execute(_LEXEMES_SQL, [todo])
            found = {text: tuple(lexemes) for text, lexemes in cursor.fetchall()}
        with _titles_lock:
            if len(_titles_lexemes) > _TITLES_CACHE:
                _titles_lexemes.clear()
            _titles_lexemes.update(found)
        known |= found
    return known


def _idf(asked: Sequence[str], sections: Sequence[Sequence[str]]) -> dict[str, float]:
    stats = term_stats()
    words = set(asked).union(*sections)
    return {word: stats.idf(word) for word in words}


def _section(section: Sequence[str], asked: set[str], idf: dict[str, float]) -> dict[str, float]:
    """``section_unasked`` and ``section_asked`` (module docstring)."""
    titles = set(section)
    title_mass = sum(idf.get(w, 0.0) for w in titles)
    asked_mass = sum(idf.get(w, 0.0) for w in asked)
    unasked = sum(idf.get(w, 0.0) for w in titles - asked)
    shared = sum(idf.get(w, 0.0) for w in asked & titles)
    return {
        "section_unasked": unasked / title_mass if title_mass else 0.0,
        "section_asked": shared / asked_mass if asked_mass else 0.0,
    }


def _num(value: Any) -> float:
    if value is None:
        return 0.0
    number = float(value)
    return number if math.isfinite(number) else 0.0


_lists: dict[int, bool] = {}
_lists_lock = threading.Lock()
_LISTS_CACHE = 50_000  # chunk ids are never reused, so a cached verdict stays true


def cached_definition_lists(chunk_ids: Sequence[int]) -> set[int]:
    """:func:`ingestion.legal.definitions.definition_lists`, remembered per chunk: a chunk's
    text never changes under its id, and the candidates of one question are mostly those
    of the last."""
    with _lists_lock:
        known = {cid: _lists[cid] for cid in chunk_ids if cid in _lists}
    todo = [cid for cid in chunk_ids if cid not in known]
    if todo:
        lists = definition_lists(todo)
        found = {cid: cid in lists for cid in todo}
        with _lists_lock:
            if len(_lists) > _LISTS_CACHE:
                _lists.clear()
            _lists.update(found)
        known |= found
    return {cid for cid, is_list in known.items() if is_list}
