"""A question that names its regulation is answered from inside that regulation.

"Apa definisi Data Pribadi menurut Undang-Undang Nomor 27 Tahun 2022?" names UU 27/2022
and asks about something in it. The named regulation narrows the search: its chunks come
before every other (the rest of the corpus follows, so a wrongly resolved name still
leaves the ordinary answers reachable), and since the corpus-wide lists may not reach its
answer, the candidates search it again on their own (:mod:`ingestion.search.candidates`).

Its opening (cover, title, preamble: any chunk outside its body, :func:`is_opening`) holds
exactly the name's words, so it would out-score the Pasal that answers: like every opening
it is one tier below the passages of a body (:mod:`ingestion.search.service`, step 4), so
it comes after the named regulation's Pasal, level with other regulations' passages. Named
alone ("UU 27/2022"), the opening is the answer.

A regulation named by its number that no visible document is, is reported
(``namedRegulationMissing``) and the question is searched without the name. A name
without a number ("uu ketenagakerjaan") only narrows when it resolves: words after a
jenis are not always a name.

The signals are the query's own structure (the reference parser's ``rest``) and the
stored citations and titles, not phrasings.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from django.db import connection

from ingestion.legal.entry_into_force import asks_entry_into_force
from ingestion.legal.references import QueryReference
from ingestion.legal.search import named_documents
from ingestion.legal.units import ANNEX, path_top
from ingestion.search.lexical import query_lexemes
from ingestion.search.query import SearchQuery
from ingestion.search.sql import title_candidates
from ingestion.search.terms import lexical_text

# Where the body of a regulation is: a Pasal, or a BAB/Bagian/Paragraf whose Pasal header
# a scan damaged. Outside all of them: the cover, title, preamble, closing.
_BODY = re.compile(r"\b(?:Pasal|BAB|Bagian|Paragraf)\s+\w")


MAX_NAMED = 20
_FULL = 0.999


@dataclass(frozen=True, slots=True)
class Scope:
    documents: tuple[str, ...] = ()  # the visible documents of the named regulation
    beyond: bool = False  # the question asks something beyond the name
    asks_in_force: bool = False  # ... and only when it takes effect (legal.entry_into_force)
    missing: str | None = None  # named by number, and no visible document is it


def named_scope(reference: QueryReference, q: SearchQuery) -> Scope:
    if not reference.names_something:
        return Scope()
    documents = tuple(named_documents(reference, q) or _by_title(reference, q))
    if not documents:
        ref = reference.regulation
        complete = ref is not None and ref.nomor and ref.tahun
        return Scope(missing=ref.short if complete and ref is not None else None)
    rest = asks_beyond_name(reference)
    return Scope(documents, beyond=bool(rest), asks_in_force=asks_entry_into_force(rest))


def _by_title(reference: QueryReference, q: SearchQuery) -> list[str]:
    """Documents whose title or title labels hold every word of the named regulation's short
    citation: a document whose citation was never stored is still the one named."""
    short = reference.regulation.short if reference.regulation is not None else None
    lex = lexical_text(short or "")
    if not lex:
        return []
    found = title_candidates(lex, q, limit=MAX_NAMED, min_coverage=_FULL)
    return [c.document_id for c in found]


def asks_beyond_name(reference: QueryReference) -> str:
    """The question's words that are not the regulation's name ("" when it is only a name
    or names a unit, which the reference step cites itself)."""
    if reference.unit is not None or not (reference.regulation or reference.name):
        return ""
    rest = lexical_text(reference.rest)
    return rest if rest and query_lexemes(rest) else ""


def is_opening(heading_path: str | None) -> bool:
    """Outside the regulation's body and its annexes: its cover, title, preamble, closing,
    and the general part of its Penjelasan (see ``_BODY``; the Penjelasan of a Pasal names
    it). Only a document with a body has an opening (:func:`with_body`)."""
    path = heading_path or ""
    return not _BODY.search(path) and path_top(path) != ANNEX


_WITH_BODY_SQL = """
    SELECT d FROM unnest(%s::uuid[]) d
    WHERE EXISTS (SELECT 1 FROM ingestion_legalunit u WHERE u.document_id = d)
"""


def with_body(document_ids: Collection[str]) -> set[str]:
    """The documents among these whose text has a body (a legal unit was read). A circular,
    a PPID page or a dataset's description is all text, and none of it is an opening."""
    if not document_ids:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(_WITH_BODY_SQL, [list(document_ids)])
        return {str(row[0]) for row in cursor.fetchall()}
