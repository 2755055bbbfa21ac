"""What a question asks, read once per search: the text to embed, the words to match, the
unit and regulation it names, the term it asks to define.

Everything here reads the question's own structure, never a list of phrasings:

- a question is bounded (``MAX_QUERY_CHARS``, cut at a word): a pasted page is still a
  question, not a reason to fail or to embed a book;
- a gloss in parentheses ("hak portabilitas data (data portability)", "persetujuan
  (consent)") is a translation for the reader, in words the corpus does not use: a
  parenthesised run of lower-case Latin words at least half of whose lexemes occur in no
  chunk is left out of both the embedded and the matched text. "(PKWT)", "(4)" and a
  parenthesis of Indonesian words the regulations use stay;
- the unit and regulation it names (:mod:`ingestion.legal.references`) and the definition
  term (:mod:`ingestion.legal.definitions`) are read from the text without the gloss.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import connection

from ingestion.legal.definitions import asked_term
from ingestion.legal.references import QueryReference, parse_query_reference
from ingestion.search.lexical import query_lexemes
from ingestion.search.terms import lexical_text

MAX_QUERY_CHARS = 1000
_GLOSS = re.compile(r"\(\s*((?:[A-Za-z][A-Za-z'-]*\s*){1,6})\)")
_GLOSS_UNKNOWN_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Asked:
    """One question, read."""

    text: str  # bounded, gloss removed: what is embedded
    lex: str  # its content words (``plainto_tsquery`` input); "" when none
    lexemes: tuple[str, ...]
    reference: QueryReference
    term: list[str] | None  # the term a definition question asks about


def bounded(text: str) -> str:
    """At most ``MAX_QUERY_CHARS``, cut at the last space before the bound."""
    text = " ".join(text.split())
    if len(text) <= MAX_QUERY_CHARS:
        return text
    cut = text[:MAX_QUERY_CHARS]
    return cut.rsplit(" ", 1)[0] if " " in cut else cut


def understand(text: str) -> Asked:
    text = without_glosses(bounded(text))
    lex = lexical_text(text)
    reference = parse_query_reference(text)
    return Asked(
        text=text,
        lex=lex,
        lexemes=tuple(query_lexemes(lex)) if lex else (),
        reference=reference,
        term=asked_term(text, reference),
    )


def without_glosses(text: str) -> str:
    """The text without its parenthesised glosses (see the module docstring)."""
    glosses = [m for m in _GLOSS.finditer(text) if _may_be_gloss(m.group(1))]
    if not glosses:
        return text
    unknown = _unknown_lexemes(" ".join(m.group(1) for m in glosses))
    kept, last = [], 0
    for match in glosses:
        lexemes = query_lexemes(match.group(1))
        if lexemes and sum(x in unknown for x in lexemes) >= _GLOSS_UNKNOWN_SHARE * len(lexemes):
            kept.append(text[last : match.start()])
            last = match.end()
    kept.append(text[last:])
    return " ".join("".join(kept).split())


def _may_be_gloss(inner: str) -> bool:
    """Lower-case words (an abbreviation in capitals, "(PKWT)", is the regulation's own)."""
    return any(word[:1].islower() for word in inner.split())


def _unknown_lexemes(text: str) -> set[str]:
    """The lexemes of ``text`` that no chunk holds (one index probe each)."""
    lexemes = query_lexemes(text)
    if not lexemes:
        return set()
    sql = (
        "SELECT t FROM unnest(%(terms)s::text[]) t WHERE NOT EXISTS ("
        "SELECT 1 FROM ingestion_chunk c WHERE c.search_vector @@ quote_literal(t)::tsquery)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, {"terms": lexemes})
        return {row[0] for row in cursor.fetchall()}
