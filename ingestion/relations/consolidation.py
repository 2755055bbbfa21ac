"""Build and store the consolidated text of every amended regulation in the corpus.

The reading and applying are pure (:mod:`ingestion.legal.amendments`); this module feeds
them the stored text and keeps the result (:class:`ingestion.models.Consolidation`, its
:class:`~ingestion.models.Amendment` and :class:`~ingestion.models.AmendmentInstruction`
rows and every Pasal's :class:`~ingestion.models.PasalVersion`).

:func:`rebuild` runs inside :func:`ingestion.relations.graph.refresh_document`, under the
graph lock, for every regulation the refresh touched: an amended regulation is rebuilt
when it or any of its amending regulations arrives, in either order, and a new edition of
either side replaces the result (rows are rebuilt, never patched, so a rebuild is
idempotent). An amending regulation whose target is not in the corpus builds nothing: its
relation waits. A build that raises fails only itself, in its own savepoint: the state is
``failed`` with the reason, and the document's indexing goes on.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.db.models import QuerySet

from ingestion.legal.amendments.apply import Consolidation as Built
from ingestion.legal.amendments.apply import consolidate
from ingestion.legal.amendments.model import AmendmentText, Instruction
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments, regulation_dates
from ingestion.legal.citation import RegulationRef
from ingestion.legal.relations import match_key
from ingestion.legal.units import section_path
from ingestion.models import (
    Amendment,
    AmendmentInstruction,
    Consolidation,
    ConsolidationState,
    Document,
    InstructionState,
    PasalVersion,
    RegulationRelation,
    RelationKind,
)
from ingestion.relations.editions import RegulationId, current_among, current_edition, editions

log = logging.getLogger(__name__)

_ERROR_CHARS = 2000


# --- the stored text -------------------------------------------------------------------


def stored_text(document: Document) -> str:
    """The document's text as stored: its chunks in order (legal chunks carry no overlap),
    each heading line (BAB, Bagian, PENJELASAN) written once where it starts, since the
    chunks keep those only in their heading path."""
    lines: list[str] = []
    previous: list[str] = []
    rows = document.chunks.order_by("ordinal").values_list("heading_path", "text")
    for heading_path, text in rows:
        # A split Pasal's chunks end their path with the ayat or item they start at; that
        # label is an address, not a heading line of the text.
        path = section_path([p.strip() for p in heading_path.split("›") if p.strip()])
        headings = [p for p in path if not p.startswith("Pasal ") and p != "Pembukaan"]
        for depth, heading in enumerate(headings):
            if depth >= len(previous) or previous[depth] != heading:
                lines.append(heading)
        previous = headings
        lines.append(text)
    return "\n".join(lines) + "\n"


def enacted_on(text: str) -> date | None:
    """The date a regulation came into force, read from its text (the enactment date, or
    the later date it states); the original wording of each Pasal is in force from then."""
    enacted, effective = regulation_dates(text)
    return effective or enacted


# --- entry point -----------------------------------------------------------------------


def rebuild(regulations: Iterable[RegulationId]) -> None:
    """Rebuild the consolidation of each regulation (called under the graph lock)."""
    for rid in sorted(regulations):
        current = current_edition(rid)
        stale = Consolidation.objects.filter(document__in=editions(rid))
        if current is not None:
            stale = stale.exclude(document=current)
        discard(stale)
        if current is None:
            continue
        amenders = amending_documents(current)
        if not amenders:
            discard(Consolidation.objects.filter(document=current))
            continue
        build_safely(current, amenders)


def discard(consolidations: QuerySet[Consolidation]) -> None:
    """Delete consolidations with their rows, children first: nothing points at a Pasal
    version, so its table goes in one statement (a cascade from the consolidation would
    first load every version it deletes)."""
    PasalVersion.objects.filter(consolidation__in=consolidations).delete()
    AmendmentInstruction.objects.filter(amendment__consolidation__in=consolidations).delete()
    consolidations.delete()


def amending_documents(target: Document) -> list[Document]:
    """The current editions of the regulations here that state they amend ``target``."""
    relations = RegulationRelation.objects.filter(
        kind=RelationKind.AMENDS, target_document=target
    ).select_related("source_document")
    sources = {r.source_document_id: r.source_document for r in relations}
    current = current_among(sources.values())
    return [d for pk, d in sources.items() if pk in current]


def build_safely(target: Document, amenders: Sequence[Document]) -> Consolidation:
    """Build, or record why it failed: a failure never leaves this function."""
    started = time.monotonic()
    try:
        with transaction.atomic():
            row = build(target, amenders)
    except Exception as exc:  # a hostile Pasal I must not fail the document's indexing
        log.exception("consolidation of %s failed", target.pk)
        discard(Consolidation.objects.filter(document=target))
        row = Consolidation.objects.create(
            document=target,
            regulation_key=target.regulation_key,
            state=ConsolidationState.FAILED,
            error=f"{type(exc).__name__}: {exc}"[:_ERROR_CHARS],
        )
    took = time.monotonic() - started
    Consolidation.objects.filter(pk=row.pk).update(took_ms=took * 1000)
    log.info(
        "consolidation: %s with %s amendments → %s in %.3fs",
        target.pk,
        len(amenders),
        row.state,
        took,
    )
    return row


# --- one build -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Amender:
    document: Document
    ref: RegulationRef
    text: AmendmentText | None


def build(target: Document, amenders: Sequence[Document]) -> Consolidation:
    """Read the target's Pasal and each amender's instructions, apply them, store it all."""
    original_text = stored_text(target)
    original = pasal_texts(original_text)
    ordered = sorted((_read(target, d) for d in amenders), key=_chain_order)
    readable = [a for a in ordered if a.text is not None]
    built = consolidate(
        original,
        enacted_on(original_text),
        [a.text for a in readable if a.text is not None],
        [a.ref for a in readable],
    )
    discard(Consolidation.objects.filter(document=target))
    row = Consolidation.objects.create(
        document=target,
        regulation_key=target.regulation_key,
        state=ConsolidationState.BUILT,
        chain_complete=built.chain_complete,
        missing=[ref.short or str(ref) for ref in built.missing],
        dated_by_text=built.dated_by_text and all(_date(a) is not None for a in readable),
    )
    instructions = _store_amendments(row, target, ordered, built)
    _store_versions(row, target, readable, built, instructions)
    return row


def _read(target: Document, document: Document) -> _Amender:
    ref = regulation_ref(document)
    texts = read_amendments(stored_text(document), ref)
    return _Amender(document, ref, _share_for(target, texts))


def regulation_ref(document: Document) -> RegulationRef:
    """The regulation a document is, from the key the graph gave it (``own_ref``)."""
    jenis, _, rest = document.regulation_key.partition("|")
    nomor, _, tahun = rest.partition("|")
    return RegulationRef(
        jenis=jenis or None,
        nomor=nomor or None,
        tahun=tahun or None,
        region=document.regulation_region or None,
    )


def _share_for(target: Document, texts: Sequence[AmendmentText]) -> AmendmentText | None:
    """The amending text's share that amends ``target`` (an omnibus amends many)."""
    for text in texts:
        if text.target is not None and match_key(text.target) == target.regulation_key:
            return text
    # The relation already says this regulation amends the target: a text with one
    # share is that share even when its target was read differently.
    return texts[0] if len(texts) == 1 else None


def _date(amender: _Amender) -> date | None:
    text = amender.text
    return (text.effective or text.enacted) if text is not None else None


def _natural(value: str | None) -> tuple[int, str]:
    digits = re.match(r"\d+", value or "")
    return (int(digits.group()) if digits else 0, value or "")


def _chain_order(amender: _Amender) -> tuple[date, tuple[int, str], tuple[int, str], str]:
    """By the date it came into force, then year and number in natural order (Indigo)."""
    ref = amender.ref
    return (
        _date(amender) or date.max,
        _natural(ref.tahun),
        _natural(ref.nomor),
        str(amender.document.pk),
    )


def _store_amendments(
    row: Consolidation, target: Document, ordered: Sequence[_Amender], built: Built
) -> dict[int, AmendmentInstruction]:
    """Amendment and instruction rows; returns the instruction rows by ``id()`` of the
    instruction they store (versions point at them)."""
    applied = {id(i) for i in built.applied}
    conflicts = {id(i): reason for i, reason in built.conflicts}
    by_instruction: dict[int, AmendmentInstruction] = {}
    for order, amender in enumerate(ordered):
        amendment = Amendment.objects.create(
            consolidation=row,
            amended_document=target,
            amending_document=amender.document,
            citation=(amender.ref.short or amender.document.citation or amender.document.title)[
                :200
            ],
            enacted=amender.text.enacted if amender.text else None,
            date=_date(amender),
            dated_by_text=_date(amender) is not None,
            order=order,
        )
        instructions = amender.text.instructions if amender.text else ()
        rows = [_instruction_row(amendment, i, applied, conflicts) for i in instructions]
        stored = AmendmentInstruction.objects.bulk_create(rows)
        by_instruction |= {id(i): r for i, r in zip(instructions, stored, strict=True)}
    return by_instruction


def _instruction_row(
    amendment: Amendment, instruction: Instruction, applied: set[int], conflicts: dict[int, str]
) -> AmendmentInstruction:
    state = InstructionState.NEW
    reason = instruction.reason
    if instruction.operation is None:
        state = InstructionState.UNPARSED
    elif id(instruction) in conflicts:
        state, reason = InstructionState.CONFLICT, conflicts[id(instruction)] or reason
    elif id(instruction) in applied:
        state = InstructionState.APPLIED
    return AmendmentInstruction(
        amendment=amendment,
        ordinal=instruction.ordinal,
        source=instruction.source[:200],
        operation=str(instruction.operation or ""),
        target=", ".join(t.label() for t in instruction.targets)[:300],
        state=state,
        text=instruction.text,
        reason=reason,
    )


def _store_versions(
    row: Consolidation,
    target: Document,
    readable: Sequence[_Amender],
    built: Built,
    instructions: dict[int, AmendmentInstruction],
) -> None:
    documents = {match_key(a.ref): a.document for a in readable}
    versions = [
        PasalVersion(
            consolidation=row,
            document=target,
            regulation_key=target.regulation_key,
            number=history.number[:16],
            sort_order=order,
            seq=seq,
            bab=(history.bab or "")[:200],
            state=str(version.state),
            text=version.text,
            valid_from=version.valid_from,
            valid_to=version.valid_to,
            instruction=instructions.get(id(version.instruction)) if version.instruction else None,
            amending_document=documents.get(match_key(version.amending))
            if version.amending is not None
            else None,
        )
        for order, history in enumerate(built.pasals)
        for seq, version in enumerate(history.versions)
    ]
    PasalVersion.objects.bulk_create(versions, batch_size=500)
