"""Definition questions: "Apa yang dimaksud dengan X?" finds the unit that defines X.

Regulations define their terms in one form, usually in the Ketentuan Umum (Pasal 1):
``3. Pemberi Kerja adalah …``, ``2. Jaminan Kematian yang selanjutnya disingkat JKM adalah
…``, or in an ayat (``(3) Tahapan represif non yustisia sebagaimana dimaksud pada ayat (1)
huruf b, merupakan …``). A definition unit is short and the term is its first words, so
neither the chunk vector (a long Pasal 1 of thirty definitions) nor BM25 (the term is one
or two words among many) finds it reliably; reading the form does.

- :func:`definition_term` reads the term from the question (``apa yang dimaksud dengan``,
  ``apa itu``, ``apa pengertian``/``definisi``/``arti``, ``pengertian X``);
- :func:`defined_terms` reads the term(s) a unit defines: the words before ``adalah`` /
  ``merupakan`` / ``ialah`` / ``yaitu``, and the short form after ``yang selanjutnya
  disingkat/disebut``;
- :func:`match_score` compares them word by word from the start. The question may add a
  qualifier the definition does not repeat ("Pemberi Kerja terkait dengan Pekerja Migran
  Indonesia"), or name only the short form's head ("LTSA" for "LTSA Pekerja Migran
  Indonesia"); the more of the question's term a definition covers, the better;
- :func:`defining_units` finds, in the candidates' regulations, the units that define the
  term best.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.db import connection

from ingestion.legal.references import QueryReference, parse_query_reference
from ingestion.legal.search import UNIT_COLUMNS, UnitRow, unit_rows
from ingestion.search.query import SearchQuery
from ingestion.search.sql import document_filter
from ingestion.search.terms import STOPWORDS

# A definition counts when it covers at least this share of the question's term (measured
# on the GALQA dev split: 0.34–0.99 give the same result; docs/decisions.md).
MIN_MATCH = 0.5
MAX_TERM_WORDS = 25
CANDIDATE_LIMIT = 200
_EXTRA_WORD_PENALTY = 0.01  # an exact definition beats one that only starts with the term

_QUESTION = re.compile(
    r"^\s*(?:(?:jelaskan|terangkan|sebutkan)\s+)?"
    r"(?:apa(?:kah)?\s+(?:yang\s+)?(?:di)?maksud(?:kan)?(?:\s+dengan)?"
    r"|apa(?:kah)?\s+(?:itu|pengertian|definisi|arti)(?:\s+dari)?"
    r"|(?:jelaskan\s+)?(?:pengertian|definisi|arti)(?:\s+dari)?)"
    r"\s+(?P<term>.+?)\s*[?.!]*\s*$",
    re.IGNORECASE | re.DOTALL,
)
# An item marker before the defined term: "10.", "(3).", "(3)", "b.".
_MARKER = re.compile(r"^\s*(?:\(?\d+[a-z]?\)?\.?|[a-z]\.)\s+", re.IGNORECASE)
_DEFINES = re.compile(r"^(?P<head>.{1,300}?)\s+(?:adalah|merupakan|ialah|yaitu)\b", re.I | re.S)
_ALIAS = re.compile(
    r"\s*,?\s+(?:yang\s+)?selanjutnya\s+(?:disingkat|disebut)(?:\s+dengan)?\s+", re.IGNORECASE
)
# Where a defined term ends before its verb: "… sebagaimana dimaksud pada ayat (1), merupakan".
_TERM_END = re.compile(r"\s+sebagaimana\s+|,|\s+dalam\s+peraturan\s+", re.IGNORECASE)
_WORD = re.compile(r"[\w/-]+", re.UNICODE)
# Where the question places the term rather than names it: "PKL dalam Peraturan Pemerintah
# ini", or the connective a removed regulation reference leaves ("pemberi kerja menurut").
_PLACE = r"(?:dalam|menurut|pada|di|berdasarkan|sesuai(?:\s+dengan)?)"
_TRAILING = re.compile(
    rf"\s+(?:{_PLACE}\s+(?:peraturan|undang-undang|qanun)\b.*|{_PLACE}|dari)\s*$",
    re.IGNORECASE | re.DOTALL,
)


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def definition_term(question: str) -> list[str] | None:
    """The words of the term a definition question asks about, or ``None``."""
    match = _QUESTION.match(question)
    if match is None:
        return None
    term = words(_TRAILING.sub("", match["term"].strip(" ?.!")))
    # "Apa yang dimaksud dalam Pasal 5?" asks what a Pasal says, not what a term means.
    if not term or term[0] in STOPWORDS or len(term) > MAX_TERM_WORDS:
        return None
    return term


def asked_term(query: str, reference: QueryReference | None = None) -> list[str] | None:
    """:func:`definition_term` of the query without the regulation or unit it names ("Apa
    yang dimaksud dengan JKM dalam PP 44/2015?" asks about JKM). ``reference``: the query's
    already parsed reference, if the caller has it."""
    reference = reference or parse_query_reference(query)
    return definition_term(reference.rest if reference.names_something else query)


def defined_terms(unit_text: str) -> list[list[str]]:
    """The term a unit defines and its short form, as words; empty when it defines none."""
    match = _DEFINES.match(_MARKER.sub("", unit_text, count=1))
    if match is None:
        return []
    terms = []
    for part in _ALIAS.split(match["head"], maxsplit=1):
        term = words(_TERM_END.split(part, maxsplit=1)[0])
        if 0 < len(term) <= MAX_TERM_WORDS:
            terms.append(term)
    return terms


def match_score(asked: Sequence[str], defined: Sequence[str]) -> float:
    """Share of the asked term covered by a definition that starts the same way; 0 when
    neither is a word-prefix of the other. Function words do not count ("pekerjaan yang
    bersifat musiman" defines "pekerjaan bersifat musiman"), so the question's own
    connective ("… dalam ketentuan PKWT") is only an unmatched qualifier."""
    asked = [w for w in asked if w not in STOPWORDS]
    defined = [w for w in defined if w not in STOPWORDS]
    if not asked:
        return 0.0
    common = 0
    while common < min(len(asked), len(defined)) and asked[common] == defined[common]:
        common += 1
    if common == 0 or common not in (len(asked), len(defined)):
        return 0.0
    return common / len(asked) - _EXTRA_WORD_PENALTY * (len(defined) - common)


_CANDIDATES_SQL = """
    SELECT {columns}, u.page, 0.0, u.text
    FROM ingestion_legalunit u
    JOIN ingestion_chunk c ON c.id = u.chunk_id
    JOIN documents d ON d.id = u.document_id
    WHERE u.search_vector @@ plainto_tsquery('indonesian', %(first)s)
      AND u.depth > 0 AND NOT u.penjelasan AND c.indexed
      AND u.document_id = ANY(%(docs)s::uuid[]) AND u.text ~* %(starts)s AND {where}
    ORDER BY u.id
    LIMIT %(n)s
"""


def defining_units(
    term: Sequence[str], query: SearchQuery, documents: Sequence[str]
) -> list[UnitRow]:
    """The visible body units of ``documents`` that define ``term`` best (all of the best
    score, if it reaches ``MIN_MATCH``), in index order.

    ``documents`` are those of the query's candidates: a regulation none of whose chunks
    came up is not the one the question is about, and the look-up stays bounded on a large
    corpus (on GALQA dev, searching every document gives the same figures)."""
    if not term or not documents:
        return []
    where, params = document_filter(query)
    # The first word opens the unit (after an optional item marker) or its short form
    # (Postgres ARE syntax).
    first = re.escape(term[0])
    starts = (
        rf"^\s*(\(?\d+[a-z]?\)?\.?\s+|[a-z]\.\s+)?{first}\M"
        rf"|selanjutnya\s+(disingkat|disebut)(\s+dengan)?\s+{first}\M"
    )
    params |= {"first": term[0], "starts": starts, "docs": list(documents), "n": CANDIDATE_LIMIT}
    rows = unit_rows(_CANDIDATES_SQL.format(columns=UNIT_COLUMNS, where=where), params)
    scored = [
        (max((match_score(term, t) for t in defined_terms(text)), default=0.0), row)
        for row, text in rows
    ]
    best = max((score for score, _ in scored), default=0.0)
    if best < MIN_MATCH:
        return []
    return [row for score, row in scored if score == best]


_JOINERS = frozenset({"dan", "serta"})


def term_parts(term: Sequence[str]) -> list[list[str]]:
    """ "X dan Y" as [X, Y]: the terms of a question asking for two definitions at once."""
    parts: list[list[str]] = [[]]
    for word in term:
        if word in _JOINERS:
            parts.append([])
        else:
            parts[-1].append(word)
    return [p for p in parts if p] if len(parts) > 1 else []


_LIST_SHARE = 0.5  # a chunk is a list of definitions when half its sub-units define a term


def definition_lists(chunk_ids: Sequence[int]) -> set[int]:
    """The chunks among ``chunk_ids`` that are lists of definitions (a Ketentuan Umum): at
    least half of their body sub-units define a term."""
    if not chunk_ids:
        return set()
    sql = (
        "SELECT chunk_id, text FROM ingestion_legalunit "
        "WHERE chunk_id = ANY(%(ids)s) AND depth > 0 AND NOT penjelasan"
    )
    counts: dict[int, list[int]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, {"ids": list(chunk_ids)})
        for chunk_id, text in cursor.fetchall():
            seen = counts.setdefault(chunk_id, [0, 0])
            seen[0] += 1
            seen[1] += bool(defined_terms(text))
    return {cid for cid, (units, defining) in counts.items() if defining >= _LIST_SHARE * units}
