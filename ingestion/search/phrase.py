"""A quoted passage leads: a query that is a run of a regulation's own words finds that text.

People paste a sentence they have in front of them ("diaudit oleh lembaga yang berwenang
memeriksa pengelolaan dan tanggung jawab keuangan negara") to learn where it stands and
whether it is still the law. Ranked retrieval weighs the words one by one, so two Pasal
that share most of them (Tipikor Pasal 11 and Pasal 12, the penalty clauses of every law)
can come out in either order. The chunk that holds the whole run, word for word, is the
answer: it leads, and it cites the smallest unit holding the run. A run outside every unit
(an amending law's instruction prose, a preamble) cannot be cited as law and does not lead.

Only a query of at least ``MIN_WORDS`` words is read as a quotation; natural questions are
not the text of any Pasal, so they never meet this rule. A run found in more than
``MAX_PLACES`` units says nothing about which one was meant (boilerplate such as "mulai
berlaku pada tanggal diundangkan"), and nothing leads; so does a run the phrase query finds
in a full page of ``CANDIDATES`` chunks, since the places past that page are not counted. A
unit split over two overlapping chunks is one place. Words are compared as ``\\w+``
tokens, case folded, so punctuation and line breaks do not count. The wording in force is
chosen afterwards, as for every hit (:mod:`ingestion.search.consolidated`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection

from ingestion.legal.search import UnitRow, chunk_units
from ingestion.search.query import SearchQuery
from ingestion.search.sql import document_filter

MIN_WORDS = 8
MAX_PLACES = 3  # units holding the run; more is boilerplate
CANDIDATES = 40  # chunks the full-text phrase query returns for the word-for-word check
_TOKEN = re.compile(r"\w+", re.UNICODE)

_PHRASE_SQL = """
    SELECT c.id FROM ingestion_chunk c JOIN documents d ON d.id = c.document_id
    WHERE c.search_vector @@ phraseto_tsquery('indonesian', %(text)s) AND c.indexed
      AND {where}
    ORDER BY c.id LIMIT %(n)s
"""


@dataclass(frozen=True, slots=True)
class Quoted:
    """A chunk holding the query word for word, and the unit it cites."""

    chunk_id: int
    document_id: str
    unit: UnitRow


def words(text: str) -> list[str]:
    return [token.casefold() for token in _TOKEN.findall(text)]


def quoted_chunks(q: SearchQuery, fused: Sequence[tuple[int, float]]) -> list[Quoted]:
    """The chunks holding the whole query as a run of words inside one of their units, one
    per unit (at most ``MAX_PLACES``), in ``fused`` order; empty when the query is no
    quotation or the run is everywhere."""
    wanted = words(q.text)
    if len(wanted) < MIN_WORDS:
        return []
    candidates = _indexed(q)
    if len(candidates) >= CANDIDATES:
        return []  # a full page: the run may be in many more places than it shows
    rows = _texts(candidates)
    spans = {cid: found for cid, (_doc, text) in rows.items() if (found := find_runs(text, wanted))}
    if not spans or len(spans) > 2 * MAX_PLACES:  # two chunks can share one unit, no more
        return []
    order = {cid: rank for rank, (cid, _) in enumerate(fused)}
    matched = sorted(spans, key=lambda cid: (order.get(cid, len(order)), cid))
    units = chunk_units(matched, [])
    quoted: dict[tuple[object, ...], Quoted] = {}
    for cid in matched:  # every run counts: one chunk may hold the wording of two Pasal
        for span in spans[cid]:
            if (unit := smallest_holding(units.get(cid, []), span)) is not None:
                quoted.setdefault(_place(unit), Quoted(cid, rows[cid][0], unit))
    return list(quoted.values()) if len(quoted) <= MAX_PLACES else []


def _place(unit: UnitRow) -> tuple[object, ...]:
    """Where a unit stands in its regulation: the same for its text in two chunks."""
    return (unit.document_id, unit.pasal, unit.ayat, unit.huruf, unit.angka, unit.penjelasan)


def find_run(text: str, wanted: Sequence[str]) -> tuple[int, int] | None:
    """The character span of the first run of ``wanted`` in ``text``, or None."""
    runs = find_runs(text, wanted)
    return runs[0] if runs else None


def find_runs(text: str, wanted: Sequence[str]) -> list[tuple[int, int]]:
    """The character spans of ``wanted`` as consecutive words of ``text``, in text order."""
    tokens = list(_TOKEN.finditer(text))
    folded = [t.group().casefold() for t in tokens]
    first, size, want = wanted[0], len(wanted), list(wanted)
    return [
        (tokens[start].start(), tokens[start + size - 1].end())
        for start, token in enumerate(folded[: len(folded) - size + 1])
        if token == first and folded[start : start + size] == want
    ]


def smallest_holding(units: Sequence[UnitRow], span: tuple[int, int]) -> UnitRow | None:
    """The deepest unit whose text holds the whole span: the body before its Penjelasan."""
    holding = [u for u in units if u.start <= span[0] and span[1] <= u.end]
    if not holding:
        return None
    return max(holding, key=lambda u: (not u.penjelasan, u.depth, -(u.end - u.start)))


def _indexed(q: SearchQuery) -> list[int]:
    """Chunks whose full text holds the query as a phrase (the GIN index, positions
    checked by Postgres), wherever they rank: a superset of the word-for-word runs, since
    stemming and stop words only loosen the match."""
    where, params = document_filter(q)
    with connection.cursor() as cursor:
        cursor.execute(_PHRASE_SQL.format(where=where), params | {"text": q.text, "n": CANDIDATES})
        return [row[0] for row in cursor.fetchall()]


def _texts(chunk_ids: Sequence[int]) -> dict[int, tuple[str, str]]:
    """chunk id → (document id, text)."""
    if not chunk_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, document_id, text FROM ingestion_chunk WHERE id = ANY(%(ids)s)",
            {"ids": list(chunk_ids)},
        )
        return {row[0]: (str(row[1]), row[2]) for row in cursor.fetchall()}
