"""A question that names its regulation is answered from inside that regulation.

"Apa definisi Data Pribadi menurut Undang-Undang Nomor 27 Tahun 2022?" names UU 27/2022
and asks about something in it. The reference step (``service._apply_reference``) lifts
every candidate of the named regulation above the rest; this module adds what that alone
gets wrong once the corpus is large:

- the candidates came from the whole corpus, where the named regulation's answer may not
  be among the first fifty: the rest of the question (the words that are not the name) is
  searched again inside the named regulation (:func:`ingestion.search.lexical.bm25_within`)
  and those chunks join, ranked by that search;
- the named regulation's opening (its cover and title, any chunk outside a Pasal) holds
  exactly the name's words, so it out-scores the Pasal that answers: it takes no bonus
  when the question asks something beyond the name. Named alone ("UU 27/2022"), the
  opening is still the answer.

The signals are the query's own structure (the reference parser's ``rest``) and the
corpus' term statistics, not phrasings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.db import connection

from ingestion.legal.references import QueryReference
from ingestion.search.lexical import bm25_within, query_lexemes
from ingestion.search.terms import lexical_text

SCOPED_CANDIDATES = 20
_PASAL = re.compile(r"\bPasal\s+\d")

Ranked = list[tuple[int, float]]


def asks_beyond_name(reference: QueryReference) -> str:
    """The question's words that are not the regulation's name ("" when it is only a name
    or names a unit, which the reference step cites itself)."""
    if reference.unit is not None or not (reference.regulation or reference.name):
        return ""
    rest = lexical_text(reference.rest)
    return rest if rest and query_lexemes(rest) else ""


def openings(chunk_ids: Sequence[int]) -> set[int]:
    """The chunks among these that sit outside every Pasal (cover, preamble, title)."""
    if not chunk_ids:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, heading_path FROM ingestion_chunk WHERE id = ANY(%s)", [list(chunk_ids)]
        )
        return {cid for cid, path in cursor.fetchall() if not _PASAL.search(path or "")}


def scoped(
    rest: str, documents: Sequence[str], bonus: float, rrf_k: int
) -> tuple[dict[int, str], Ranked]:
    """The named regulations' chunks for the rest of the question, each with the named
    bonus and its rank's reciprocal share: (owner by chunk, scored chunks)."""
    found = bm25_within(rest, documents, limit=SCOPED_CANDIDATES)
    owner = {c.chunk_id: c.document_id for c in found}
    return owner, [(c.chunk_id, bonus + 1.0 / (rrf_k + rank)) for rank, c in enumerate(found, 1)]
