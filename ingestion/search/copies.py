"""One regulation, one answer: copies of a regulation from several sources collapse to
its best copy in search results.

The same regulation arrives from a JDIH portal, from peraturan.go.id and from a bulk
import; each is its own document (its own source key and editions) with the same
regulation key (``Document.regulation_key`` + ``regulation_region``, set by
:mod:`ingestion.relations.graph`). Search answers with one copy per regulation:

- the best copy: the partner's own source before an imported copy (``sourceSystem``
  ``import_corpus``, :mod:`ingestion.bulk`), then the better text (born-digital or the
  higher OCR confidence, then more legal units read), then the older document;
- a hit of another copy becomes the best copy's chunk of the same unit (same Pasal, same
  side of the Penjelasan; a chunk outside any Pasal becomes the best copy's chunk of the
  same heading, else its first chunk), keeping the better score; when the best copy has no
  such chunk the hit is dropped. So the same Pasal never comes twice;
- except where search pinned units (those it forces as citations: a reference query's named
  unit, a quoted passage, a defining angka, the Pasal on entry into force) and the best copy
  holds none of the regulation's: then the current copy holding the highest of them answers
  for the regulation, since remapping by Pasal would lose the exact ayat or angka, or drop it
  where the best copy's text is damaged (8 of the 16 reference misses at all 5,871 were
  this; the fix was measured on a subset, docs/scaling.md).

Only the current edition of each source counts (as ``editions=latest``): editions are
versions of one copy, not copies.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from ingestion.models import HIDDEN_STATUSES
from ingestion.visibility import named_predicate

IMPORTED_SOURCE_SYSTEM = "import_corpus"
_PASAL = re.compile(r"\bPasal\s+(\d+[A-Z]?)\b")
_HIDDEN = list(HIDDEN_STATUSES)

Ranked = list[tuple[int, float]]
UnitKey = tuple[bool, str]  # (in the Penjelasan, Pasal number or the whole heading path)


@dataclass(frozen=True, slots=True)
class CopyRow:
    document_id: str
    regulation: tuple[str, str]
    imported: bool
    quality: float
    units: int
    created: object


def unit_key(heading_path: str) -> UnitKey:
    found = _PASAL.findall(heading_path)
    penjelasan = "penjelasan" in heading_path.lower()
    return (penjelasan, f"Pasal {found[-1]}") if found else (penjelasan, heading_path)


def _chunk_regulations(ids: Sequence[int]) -> dict[int, tuple[str, str, str]]:
    """chunk → (document, regulation key, region) for the chunks of regulations."""
    sql = """
        SELECT c.id, c.document_id, d.regulation_key, d.regulation_region
        FROM ingestion_chunk c JOIN documents d ON d.id = c.document_id
        WHERE c.id = ANY(%s) AND d.regulation_key <> ''
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [list(ids)])
        return {row[0]: (str(row[1]), row[2], row[3]) for row in cursor.fetchall()}


_COPIES_SQL = """
    SELECT d.id, d.regulation_key, d.regulation_region,
           coalesce(d.metadata -> 'source' ->> 'sourceSystem', '') = %(imported)s,
           coalesce(d.ocr_confidence, 1.0),
           (SELECT count(*) FROM ingestion_legalunit u WHERE u.document_id = d.id),
           d.created_at
    FROM documents d
    WHERE (d.regulation_key, d.regulation_region) IN (
            SELECT * FROM unnest(%(keys)s::text[], %(regions)s::text[])
          )
      AND d.status <> ALL(%(hidden)s::text[])
      AND {visible}
      AND EXISTS (SELECT 1 FROM ingestion_chunk x WHERE x.document_id = d.id AND x.indexed)
      AND NOT EXISTS (
          SELECT 1 FROM documents n
          WHERE n."sourceType" = d."sourceType"
            AND (n.metadata ->> 'source_key') = (d.metadata ->> 'source_key')
            AND n.status <> ALL(%(hidden)s::text[])
            AND (n.created_at, n.id) > (d.created_at, d.id)
            AND EXISTS (SELECT 1 FROM ingestion_chunk y WHERE y.document_id = n.id AND y.indexed)
      )
"""


def regulation_copies(regulations: Sequence[tuple[str, str]]) -> list[CopyRow]:
    """The searchable current copies of these regulations."""
    if not regulations:
        return []
    params: dict[str, Any] = {
        "imported": IMPORTED_SOURCE_SYSTEM,
        "keys": [k for k, _ in regulations],
        "regions": [r for _, r in regulations],
        "hidden": _HIDDEN,
    }
    # A copy the caller may not see is never the answer (nor counted as a copy).
    visible, visible_params = named_predicate("d")
    params.update(visible_params)
    with connection.cursor() as cursor:
        cursor.execute(_COPIES_SQL.format(visible=visible), params)
        return [
            CopyRow(str(r[0]), (r[1], r[2]), bool(r[3]), float(r[4]), int(r[5]), r[6])
            for r in cursor.fetchall()
        ]


def best_copy(copies: Sequence[CopyRow]) -> CopyRow:
    """The partner's own source first, then the better text, then the older document."""
    return min(copies, key=lambda c: (c.imported, -c.quality, -c.units, c.created, c.document_id))


def _unit_chunks(document_ids: Sequence[str]) -> dict[str, dict[UnitKey, int]]:
    """Each best copy's first chunk of every unit key, plus ``(False, "")``: its first."""
    sql = """
        SELECT document_id, id, heading_path FROM ingestion_chunk
        WHERE document_id = ANY(%s::uuid[]) AND indexed ORDER BY document_id, ordinal
    """
    found: dict[str, dict[UnitKey, int]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [list(document_ids)])
        for document_id, chunk_id, heading_path in cursor.fetchall():
            units = found.setdefault(str(document_id), {(False, ""): chunk_id})
            units.setdefault(unit_key(heading_path), chunk_id)
    return found


def _headings(ids: Sequence[int]) -> dict[int, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, heading_path FROM ingestion_chunk WHERE id = ANY(%s)", [list(ids)]
        )
        return dict(cursor.fetchall())


def one_copy_per_regulation(fused: Ranked, pinned: Collection[int] = ()) -> Ranked:
    """``fused`` with every other copy's chunk replaced by the answering copy's: the best
    copy, or the copy holding the regulation's ``pinned`` unit when the best does not."""
    owners = _chunk_regulations([chunk_id for chunk_id, _ in fused])
    regulations = sorted({(key, region) for _, key, region in owners.values()})
    if not regulations:
        return fused
    by_regulation: dict[tuple[str, str], list[CopyRow]] = {}
    for row in regulation_copies(regulations):
        by_regulation.setdefault(row.regulation, []).append(row)
    best = {
        reg: best_copy(rows).document_id for reg, rows in by_regulation.items() if len(rows) > 1
    }
    current = {row.document_id for rows in by_regulation.values() for row in rows}
    best |= _pinned_copies(fused, owners, pinned, best, current)
    moved = [
        cid for cid, (doc, key, region) in owners.items() if best.get((key, region), doc) != doc
    ]
    if not moved:
        return fused
    return _remap(fused, owners, best, moved)


def _pinned_copies(
    fused: Ranked,
    owners: dict[int, tuple[str, str, str]],
    pinned: Collection[int],
    best: dict[tuple[str, str], str],
    current: set[str],
) -> dict[tuple[str, str], str]:
    """Regulation → the copy answering for it when the best copy holds none of its pinned
    chunks and another current copy does (not an older edition): that copy's highest
    pinned chunk's document."""
    held = [owners[c] for c, _ in fused if c in pinned and c in owners]
    answered = {(key, region) for doc, key, region in held if best.get((key, region)) == doc}
    chosen: dict[tuple[str, str], str] = {}
    for doc, key, region in held:
        if (key, region) in best and (key, region) not in answered and doc in current:
            chosen.setdefault((key, region), doc)
    return chosen


def _remap(
    fused: Ranked,
    owners: dict[int, tuple[str, str, str]],
    best: dict[tuple[str, str], str],
    moved: Sequence[int],
) -> Ranked:
    units = _unit_chunks(sorted(set(best.values())))
    headings = _headings(moved)
    target: dict[int, int | None] = {}
    for chunk_id in moved:
        _doc, key, region = owners[chunk_id]
        chunks = units.get(best[(key, region)], {})
        wanted = unit_key(headings.get(chunk_id, ""))
        fallback = None if wanted[1].startswith("Pasal ") else chunks.get((False, ""))
        target[chunk_id] = chunks.get(wanted, fallback)
    scores: dict[int, float] = {}
    for chunk_id, score in fused:
        kept = target.get(chunk_id, chunk_id) if chunk_id in target else chunk_id
        if kept is not None and score > scores.get(kept, float("-inf")):
            scores[kept] = score
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
