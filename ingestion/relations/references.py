"""Cross-references of search results resolved to the units they name.

A reference is read from the result's own text (:mod:`ingestion.legal.xrefs`), made
absolute with the Pasal of the result's heading path and the ayat it stands in, and looked
up among the legal units of the same document — or of the regulation it names, when that
regulation is in the corpus. A document without stored units resolves at Pasal level
against its chunks' heading paths. Resolved at query time, so a referenced regulation that
arrives later is linked from then on, and a re-indexed document's new units are used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Q

from ingestion.legal import units as legal_units
from ingestion.legal.relations import match_key
from ingestion.legal.xrefs import (
    Address,
    CrossRef,
    ayat_at,
    find_references,
    pasal_of_path,
    resolve,
)
from ingestion.models import HIDDEN_STATUSES, Chunk, Document, LegalUnit
from ingestion.relations.graph import current_edition, regulation_id
from ingestion.visibility import visible, visible_ids

MAX_PER_RESULT = 20


@dataclass(frozen=True, slots=True)
class Passage:
    """What a reference is read from: one search result."""

    chunk_id: int
    document_id: str
    heading_path: str
    text: str


@dataclass(slots=True)
class _Wanted:
    passage: Passage
    ref: CrossRef
    address: Address
    document_id: str | None  # the document holding the unit; None: not in the corpus


def references_for(passages: Sequence[Passage]) -> dict[int, list[dict[str, Any]]]:
    """``{chunk_id: [{"label", "chunkId", "unit", "documentId", "citation", "span"}]}``."""
    ayats = _ayat_spans([p.chunk_id for p in passages])
    regulations: dict[tuple[str, ...], str | None] = {}
    wanted = [w for p in passages for w in _read(p, ayats.get(p.chunk_id, []), regulations)]
    units = _units(wanted)
    result: dict[int, list[dict[str, Any]]] = {p.chunk_id: [] for p in passages}
    for item in wanted:
        key = (item.document_id, item.address) if item.document_id else None
        chunk_id = units.get(key) if key else None
        other = item.ref.regulation
        result[item.passage.chunk_id].append(
            {
                "label": item.address.label,
                "chunkId": chunk_id,
                "unit": item.address.as_json(),
                "documentId": item.document_id,
                "citation": other.short if other is not None else None,
                "span": [item.ref.start, item.ref.end],
            }
        )
    return result


def _ayat_spans(chunk_ids: Sequence[int]) -> dict[int, list[tuple[int, int, str]]]:
    """The stored ayat units of each chunk: ``(start, end, ayat)``."""
    spans: dict[int, list[tuple[int, int, str]]] = {}
    rows = LegalUnit.objects.filter(chunk_id__in=chunk_ids, kind="ayat", penjelasan=False)
    for chunk_id, start, end, ayat in rows.values_list("chunk_id", "start", "end", "ayat"):
        spans.setdefault(chunk_id, []).append((start, end, ayat))
    return spans


def _ayat_of(passage: Passage, spans: list[tuple[int, int, str]], offset: int) -> str | None:
    """The ayat a reference stands in: its stored unit, else the last "(n)" before it."""
    inside = [ayat for start, end, ayat in spans if start <= offset < end]
    return inside[-1] if inside else ayat_at(passage.text, offset)


def _read(
    passage: Passage,
    ayats: list[tuple[int, int, str]],
    regulations: dict[tuple[str, ...], str | None],
) -> list[_Wanted]:
    pasal = pasal_of_path(passage.heading_path)
    found: list[_Wanted] = []
    for ref in find_references(passage.text)[:MAX_PER_RESULT]:
        address = resolve(ref, pasal, _ayat_of(passage, ayats, ref.start))
        if address is None:
            continue
        document_id: str | None = passage.document_id
        if ref.regulation is not None:
            key = ref.regulation.key
            if key not in regulations:
                regulations[key] = _regulation_document(ref)
            document_id = regulations[key]
        found.append(_Wanted(passage, ref, address, document_id))
    return found


def _regulation_document(ref: CrossRef) -> str | None:
    """The current edition of the other regulation a reference names, when it is here."""
    assert ref.regulation is not None
    if not (ref.regulation.nomor and ref.regulation.tahun):
        return None
    region = ref.regulation.key[3]
    candidates = visible(
        Document.objects.filter(regulation_key=match_key(ref.regulation)).exclude(
            status__in=HIDDEN_STATUSES
        )
    )
    if region:
        candidates = candidates.filter(Q(regulation_region=region) | Q(regulation_region=""))
    found = candidates.order_by("-created_at", "-id").first()
    current = current_edition(regulation_id(found)) if found is not None else None
    if current is None or not visible_ids([current.pk]):
        return None
    return str(current.pk)


UnitKey = tuple[str, Address]  # (document id, address)
_WITH_UNITS_SQL = """
    SELECT d FROM unnest(%s::uuid[]) d
    WHERE EXISTS (SELECT 1 FROM ingestion_legalunit u WHERE u.document_id = d)
"""
_UNITS_SQL = """
    SELECT u.document_id, u.pasal, u.ayat, u.huruf, u.angka, u.chunk_id
    FROM unnest(%s::uuid[], %s::text[], %s::text[], %s::text[], %s::text[]) w(d, p, a, h, n)
    JOIN ingestion_legalunit u
      ON u.document_id = w.d AND u.pasal = w.p AND u.ayat = w.a AND u.huruf = w.h
     AND u.angka = w.n
    JOIN ingestion_chunk c ON c.id = u.chunk_id
    WHERE NOT u.penjelasan AND c.indexed
    ORDER BY c.ordinal, u.start
"""


def _units(wanted: Sequence[_Wanted]) -> dict[UnitKey, int]:
    """The chunk holding each wanted unit: legal units first, else the Pasal's chunk."""
    pairs: set[UnitKey] = {(w.document_id, w.address) for w in wanted if w.document_id}
    if not pairs:
        return {}
    # One join against the wanted rows as arrays: an OR of a Q per unit cost more to
    # compile than to run (about 10 ms a search at 1,535 regulations).
    columns: list[list[str]] = [[], [], [], [], []]
    for document_id, address in pairs:
        values = (document_id, address.pasal, address.ayat, address.huruf, address.angka)
        for column, value in zip(columns, values, strict=True):
            column.append(value or "")
    with connection.cursor() as cursor:
        cursor.execute(_UNITS_SQL, columns)
        rows = cursor.fetchall()
    found: dict[UnitKey, int] = {}
    for unit_document, pasal, ayat, huruf, angka, chunk_id in rows:
        address = Address(pasal or None, ayat or None, huruf or None, angka or None)
        found.setdefault((str(unit_document), address), chunk_id)
    missing = pairs - found.keys()
    if missing:
        found |= _pasal_chunks(missing)
    return found


def _pasal_chunks(pairs: set[UnitKey]) -> dict[UnitKey, int]:
    """Pasal-level fallback for documents whose legal units are not stored."""
    documents = {document_id for document_id, _address in pairs}
    with connection.cursor() as cursor:
        # EXISTS per document, not DISTINCT over every unit of the documents (a large
        # regulation has thousands: 49 ms a search at 1,535 regulations).
        cursor.execute(_WITH_UNITS_SQL, [sorted(documents)])
        with_units = {str(row[0]) for row in cursor.fetchall()}
    rows = (
        Chunk.objects.filter(document_id__in=documents - with_units, indexed=True)
        .filter(heading_path__contains="Pasal ")
        .exclude(heading_path__startswith="PENJELASAN")
        .order_by("ordinal")
        .values_list("document_id", "heading_path", "id")
    )
    first: dict[tuple[str, str], int] = {}
    for chunk_document, path, chunk_id in rows:
        pasal = pasal_of_path(path)
        if pasal is not None:
            first.setdefault((str(chunk_document), pasal), chunk_id)
    return {
        (document_id, address): first[(document_id, address.pasal or "")]
        for document_id, address in pairs
        if (document_id, address.pasal or "") in first
    }


def unit_anchor(unit: dict[str, str | None]) -> str:
    """The document page's anchor of a unit given as ``{"pasal", "ayat", …}`` (the outline
    goes down to ayat: a huruf links to its ayat)."""
    return legal_units.unit_anchor(unit.get("pasal") or "", unit.get("ayat"))
