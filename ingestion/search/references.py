"""The unit a reference query names, found also where OCR misprinted its number.

"Pasal 10 PP 51/2023" names a Pasal that a scan may print as "Pasal 1O" or "Pasal l0": the
structure grammar reads the header (its number may carry a letter, as "Pasal 26A" does)
and stores the number as printed. When no unit of the named documents has the number as
asked, the stored numbers are read again with the digit look-alikes of running text
(:data:`ingestion.legal.ocr_digits.IN_TEXT`: O→0, l/I/|→1), so "1O" answers for 10. The
exact number always wins: a real "Pasal 1O" cannot exist, but a real 10 next to it would,
and so would another copy of the regulation that printed 10 as 10 (the named documents
are one regulation's copies and editions; :mod:`ingestion.search.copies` then answers
from the copy holding the exact unit). A name read from title words alone may match
several regulations; one of them holding the number as asked then answers for all.
"""

from __future__ import annotations

from collections.abc import Sequence

from ingestion.legal.ocr_digits import IN_TEXT
from ingestion.legal.references import UnitRef
from ingestion.legal.search import (
    UNIT_COLUMNS,
    UnitRow,
    in_document_order,
    named_units,
    unit_rows,
)

# Postgres translate() arguments equal to IN_TEXT (one home for the look-alikes).
_FROM = "".join(chr(k) for k in IN_TEXT)
_TO = "".join(str(v) for v in IN_TEXT.values())

_OCR_SQL = (
    "WITH cand AS (SELECT DISTINCT ON (u.document_id) u.* FROM ingestion_legalunit u "
    "JOIN ingestion_chunk c ON c.id = u.chunk_id "
    "WHERE u.document_id = ANY(%(docs)s::uuid[]) AND c.indexed AND NOT u.penjelasan "
    "AND u.pasal <> %(pasal)s AND translate(u.pasal, %(from)s, %(to)s) = %(pasal)s "
    "AND translate(u.ayat, %(from)s, %(to)s) = %(ayat)s "
    "AND u.huruf = %(huruf)s AND u.angka = %(angka)s "
    "ORDER BY u.document_id, c.ordinal, u.start) "
    "SELECT " + UNIT_COLUMNS.replace("u.", "cand.") + ", cand.page, 0.0, '' FROM cand"
)


def named_unit_rows(unit: UnitRef, documents: Sequence[str]) -> list[UnitRow]:
    """The named unit in each named document, in the documents' order; when none holds a
    unit numbered as asked, they are read again through the OCR digit look-alikes."""
    found = named_units(unit, documents)
    if not found and documents:
        params = {
            "docs": list(documents),
            "pasal": unit.pasal,
            "ayat": unit.ayat or "",
            "huruf": unit.huruf or "",
            "angka": unit.angka or "",
            "from": _FROM,
            "to": _TO,
        }
        found += [row for row, _text in unit_rows(_OCR_SQL, params)]
    return in_document_order(found, documents)
