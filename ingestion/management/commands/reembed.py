"""``manage.py reembed [--model ID] [--batch N]``: bring every chunk to the current model.

Chunks whose ``embedding_model`` differs from the active embedder's id, or that hold a
sub-unit (ayat, huruf, angka) of another model, are re-embedded in batches in id order,
with their units, the way ingestion embeds them (with the int8 engine: one pass per chunk,
the units from that pass; a passage some row already holds is read back). Each batch
commits on its own, so a stopped run resumes where it stopped when run again. Search
compares only vectors of the current model, so chunks not yet migrated are absent from
dense results meanwhile (still found lexically), never mixed in.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import Q, QuerySet

from ingestion.legal.store import unit_passages
from ingestion.legal.units import UnitKind, UnitSpan, unit_lines
from ingestion.models import Chunk, LegalUnit
from ingestion.pipeline.base import ChunkDraft
from ingestion.pipeline.embed import (
    Embedder,
    embed_passages_cached,
    get_embedder,
    passage_digest,
)
from ingestion.pipeline.late_chunk import Vector, document_vectors


class Command(BaseCommand):
    help = "Menghitung ulang embedding chunk yang dibuat dengan model lain."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--model", default=None, help="id model yang diharapkan (harus model aktif)"
        )
        parser.add_argument("--batch", type=int, default=256)

    def handle(self, *args: Any, **options: Any) -> None:
        embedder = get_embedder()
        if options["model"] and options["model"] != embedder.model_id:
            raise CommandError(
                f"Model aktif adalah {embedder.model_id!r}, bukan {options['model']!r}; "
                "ubah konfigurasi model lalu jalankan lagi"
            )
        started = time.monotonic()
        todo = stale_chunks(embedder.model_id)
        total = todo.count()
        done = seen = last_id = 0
        while True:
            batch = list(todo.filter(id__gt=last_id).order_by("id")[: options["batch"]])
            if not batch:
                break
            units = sub_units(batch)
            drafts = [as_draft(c, units.get(c.id, [])) for c in batch]
            vectors, unit_vectors = document_vectors(drafts, embedder)
            unit_vectors = own_passages(batch, units, drafts, unit_vectors, embedder)
            done += _store(batch, units, vectors, unit_vectors, embedder.model_id)
            seen += len(batch)
            last_id = batch[-1].id
            self._progress(seen, total, started)
        elapsed = time.monotonic() - started
        self.stdout.write(f"\nreembed: {done} chunk → {embedder.model_id} dalam {elapsed:.1f} dtk")

    def _progress(self, seen: int, total: int, started: float) -> None:
        share = seen / total if total else 1.0
        bar = "#" * int(share * 30)
        rate = seen / max(time.monotonic() - started, 1e-9)
        self.stdout.write(f"\r[{bar:<30}] {seen}/{total} chunk ({rate:.1f}/dtk)", ending="")
        self.stdout.flush()


def stale_chunks(model_id: str) -> QuerySet[Chunk]:
    """Chunks whose vector, or one of whose sub-units' vectors, is of another model."""
    stale_unit = Q(legal_units__depth__gt=0) & ~Q(legal_units__embedding_model=model_id)
    return (
        Chunk.objects.filter(~Q(embedding_model=model_id) | stale_unit)
        .distinct()
        .only("id", "text", "heading_path", "ordinal", "page_from", "page_to", "token_count")
    )


def sub_units(batch: list[Chunk]) -> dict[int, list[LegalUnit]]:
    """The embedded units (below the Pasal) of these chunks, in the order ingestion wrote them."""
    out: dict[int, list[LegalUnit]] = {}
    rows = LegalUnit.objects.filter(chunk_id__in=[c.id for c in batch], depth__gt=0).order_by("id")
    fields = ("id", "chunk_id", "kind", "pasal", "start", "end", "page", "depth")
    for unit in rows.only(*fields, "context", "text", "passage_digest"):
        out.setdefault(unit.chunk_id, []).append(unit)
    return out


def own_passages(
    batch: list[Chunk],
    units: dict[int, list[LegalUnit]],
    drafts: list[ChunkDraft],
    vectors: list[Vector],
    embedder: Embedder,
) -> list[Vector]:
    """The vectors, except that a unit whose passage no longer reads as the chunk's text
    does (a reviewer corrected the chunk; the unit rows keep the text they were cut from)
    is embedded from its own stored passage: a row's vector is always of its digest's
    passage, which ``embed.stored_vectors`` relies on."""
    rows = [unit for chunk in batch for unit in units.get(chunk.id, [])]
    rebuilt = unit_passages(drafts)
    out = list(vectors)
    stale = [
        i
        for i, (unit, passage) in enumerate(zip(rows, rebuilt, strict=True))
        if bytes(unit.passage_digest) != passage_digest(passage)
    ]
    own = [unit_lines(rows[i].context, rows[i].text) for i in stale]
    for i, vector in zip(stale, embed_passages_cached(own, embedder), strict=True):
        out[i] = vector
    return out


def as_draft(chunk: Chunk, units: list[LegalUnit]) -> ChunkDraft:
    """The chunk as ingestion had it: what its vectors are computed from."""
    spans = [
        UnitSpan(
            kind=UnitKind(u.kind),
            pasal=u.pasal,
            ayat=None,
            huruf=None,
            angka=None,
            start=u.start,
            end=u.end,
            page=u.page,
            penjelasan=False,
            order=("",) * u.depth,  # only the depth matters for the lead-in
        )
        for u in units
    ]
    heading = [chunk.heading_path] if chunk.heading_path else []
    return ChunkDraft(
        ordinal=chunk.ordinal,
        text=chunk.text,
        heading_path=heading,
        page_from=chunk.page_from,
        page_to=chunk.page_to,
        token_count=chunk.token_count,
        units=spans,
    )


def _store(
    batch: list[Chunk],
    units: dict[int, list[LegalUnit]],
    vectors: list[Vector],
    unit_vectors: list[Vector],
    model_id: str,
) -> int:
    """Write the vectors of chunks whose text is still the one embedded, and their units'.

    A reviewer may correct and approve a chunk while its batch is being embedded; that
    approval stores the right vector, which a vector of the old text must not overwrite.
    """
    pending = iter(unit_vectors)
    unit_vectors_of = {c.id: [next(pending) for _ in units.get(c.id, [])] for c in batch}
    with transaction.atomic():
        current = {
            pk: (text, heading)
            for pk, text, heading in Chunk.objects.select_for_update()
            .filter(id__in=[c.id for c in batch])
            .values_list("id", "text", "heading_path")
        }
        fresh: list[Chunk] = []
        fresh_units: list[LegalUnit] = []
        for chunk, vector in zip(batch, vectors, strict=True):
            if current.get(chunk.id) != (chunk.text, chunk.heading_path):
                continue
            chunk.embedding = vector
            chunk.embedding_model = model_id if vector is not None else ""
            fresh.append(chunk)
            for unit, unit_vector in zip(
                units.get(chunk.id, []), unit_vectors_of[chunk.id], strict=True
            ):
                unit.embedding = unit_vector
                unit.embedding_model = model_id if unit_vector is not None else ""
                fresh_units.append(unit)
        Chunk.objects.bulk_update(fresh, ["embedding", "embedding_model"])
        LegalUnit.objects.bulk_update(
            fresh_units, ["embedding", "embedding_model"], batch_size=1000
        )
    return len(fresh)
