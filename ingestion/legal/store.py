"""Writing a document's legal units next to its chunks, and linking PENJELASAN to the body.

Called by the index stage inside the transaction that replaces the chunks, so units and
chunks always belong to the same edition of the text.
"""

from __future__ import annotations

from collections.abc import Sequence

from ingestion.copy_rows import copy_insert
from ingestion.legal.units import UnitSpan, is_embedded, unit_context, unit_lines, unit_passage
from ingestion.models import Chunk, Document, LegalUnit
from ingestion.pipeline.base import ChunkDraft


def unit_rows(
    document: Document, chunk: Chunk, heading: str, spans: Sequence[UnitSpan]
) -> list[LegalUnit]:
    return [
        LegalUnit(
            document=document,
            chunk=chunk,
            kind=span.kind.value,
            label=span.label[:200],
            pasal=span.pasal,
            ayat=span.ayat or "",
            huruf=span.huruf or "",
            angka=span.angka or "",
            depth=len(span.order),
            penjelasan=span.penjelasan,
            start=span.start,
            end=span.end,
            page=span.page,
            text=chunk.text[span.start : span.end],
            context=unit_lines(heading, unit_context(chunk.text, spans, span)),
        )
        for span in spans
    ]


def write_units(
    document: Document,
    chunks: Sequence[Chunk],
    spans: Sequence[Sequence[UnitSpan]],
    vectors: Sequence[list[float] | None] = (),
    model_id: str = "",
) -> int:
    """Create the units of freshly created chunks and link PENJELASAN units; returns count.

    ``vectors`` are those of the embedded units (:func:`is_embedded`), in document order.
    """
    rows: list[LegalUnit] = []
    embedded: list[LegalUnit] = []
    for chunk, chunk_spans in zip(chunks, spans, strict=True):
        for span, row in zip(
            chunk_spans, unit_rows(document, chunk, chunk.heading_path, chunk_spans), strict=True
        ):
            rows.append(row)
            if is_embedded(span):
                embedded.append(row)
    if vectors:
        if len(vectors) != len(embedded):
            raise ValueError(f"{len(embedded)} embedded units but {len(vectors)} vectors")
        for row, vector in zip(embedded, vectors, strict=True):
            if vector is not None:  # a unit of no token has no vector: lexical only
                row.embedding = list(vector)
                row.embedding_model = model_id
    if not rows:
        return 0
    copy_insert(LegalUnit, rows)
    link_penjelasan(rows)
    return len(rows)


def _address(unit: LegalUnit) -> tuple[str, str, str, str, str]:
    return (unit.kind, unit.pasal, unit.ayat, unit.huruf, unit.angka)


def link_penjelasan(units: Sequence[LegalUnit]) -> None:
    """Each PENJELASAN unit explains the body unit with the same address (first one wins)."""
    body: dict[tuple[str, str, str, str, str], LegalUnit] = {}
    for unit in units:
        if not unit.penjelasan:
            body.setdefault(_address(unit), unit)
    linked = []
    for unit in units:
        target = body.get(_address(unit)) if unit.penjelasan else None
        if target is not None:
            unit.explains = target
            linked.append(unit)
    if linked:
        LegalUnit.objects.bulk_update(linked, ["explains"], batch_size=1000)


def unit_passages(drafts: Sequence[ChunkDraft]) -> list[str]:
    """The texts of the embedded units of these chunks, in the order write_units expects."""
    return [
        unit_passage(draft.heading_path_text, draft.text, draft.units, span)
        for draft in drafts
        for span in draft.units
        if is_embedded(span)
    ]
