"""The consolidated text as readers ask for it: a whole regulation, or one unit, in the
wording in force on a date (the API, the reader page and the MCP tools call these).

- :func:`consolidated_regulation` — every Pasal of a regulation as in force on ``as_of``,
  with its earlier wordings, the amendments applied and what could not be applied. A
  regulation with no amendment in the corpus is its own text, every Pasal original.
- :func:`unit_in_force` — one unit named by a reference ("UU 11/2008 Pasal 26 ayat (3)")
  in force on ``as_of``, with its history; :class:`UnitNotFound` (an Indonesian message)
  when the reference names nothing here.

Which wording is in force on a date is decided once, by
:func:`ingestion.legal.amendments.apply.text_at`, on the stored versions.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from django.utils import timezone

from ingestion.legal.amendments.apply import PasalHistory, PasalState, Version, text_at
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.citation import RegulationRef
from ingestion.legal.references import UnitRef, parse_query_reference
from ingestion.legal.relations import match_key
from ingestion.models import (
    HIDDEN_STATUSES,
    AmendmentInstruction,
    Consolidation,
    Document,
    InstructionState,
    PasalVersion,
)
from ingestion.pipeline.base import Block
from ingestion.pipeline.chunk import chunk_document
from ingestion.relations.consolidation import enacted_on, stored_text
from ingestion.relations.editions import current_edition, regulation_id
from ingestion.visibility import visible, visible_ids

NOTICE = (
    "Naskah konsolidasi ini disusun otomatis untuk memudahkan pembacaan dan tidak memiliki"
    " kekuatan hukum. Yang berlaku secara hukum adalah naskah peraturan sebagaimana"
    " diundangkan dalam Lembaran Negara atau Berita Negara/Daerah."
)


_STAND_IN = "99999"
_BAB_RE = re.compile(r"BAB\s+([IVXLCDM]+)\b", re.IGNORECASE)


class UnitNotFound(LookupError):
    """A reference that names no unit here; ``str()`` is the message a person reads."""


class RegulationNotFound(UnitNotFound):
    """The regulation itself is not here (or not visible to the caller)."""

    def __init__(self, message: str, short: str) -> None:
        super().__init__(message)
        self.short = short  # "UU 999/2099", for a caller's own wording of the message


def today() -> date:
    return timezone.localdate()


# --- views -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChangedBy:
    citation: str
    document_id: str | None
    instruction: str

    def to_json(self) -> dict[str, Any]:
        return {
            "citation": self.citation,
            "documentId": self.document_id,
            "instruction": self.instruction,
        }


@dataclass(frozen=True, slots=True)
class VersionView:
    state: str
    text: str
    valid_from: date | None
    valid_to: date | None
    changed_by: ChangedBy | None
    in_force: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "text": self.text,
            "validFrom": _iso(self.valid_from),
            "validTo": _iso(self.valid_to),
            "changedBy": self.changed_by.to_json() if self.changed_by else None,
            "inForce": self.in_force,
        }


@dataclass(frozen=True, slots=True)
class PasalView:
    """A Pasal on ``as_of``: its wording then (``state`` None: not yet in force)."""

    number: str
    bab: str
    state: str | None
    text: str
    valid_from: date | None
    valid_to: date | None
    changed_by: list[ChangedBy]
    versions: list[VersionView]

    @property
    def label(self) -> str:
        return f"Pasal {self.number}"

    @property
    def in_force(self) -> bool:
        return self.state is not None and self.state != PasalState.DELETED

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "bab": self.bab or None,
            "state": self.state,
            "text": self.text,
            "validFrom": _iso(self.valid_from),
            "validTo": _iso(self.valid_to),
            "changedBy": [c.to_json() for c in self.changed_by],
            "versions": [v.to_json() for v in self.versions],
        }


@dataclass(frozen=True, slots=True)
class AmendmentView:
    citation: str
    document_id: str
    title: str
    date: date | None
    dated_by_text: bool
    counts: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "citation": self.citation,
            "documentId": self.document_id,
            "title": self.title,
            "date": _iso(self.date),
            "datedByText": self.dated_by_text,
            "counts": dict(self.counts),
        }


@dataclass(frozen=True, slots=True)
class InstructionView:
    source: str
    amending: str
    operation: str | None
    target: str
    state: str
    text: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "amending": self.amending,
            "operation": self.operation,
            "target": self.target,
            "state": self.state,
            "text": self.text,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class ConsolidatedRegulation:
    document_id: str
    citation: str
    title: str
    as_of: date
    consolidated: bool  # False: no amendment of it is in the corpus
    state: str | None  # built | failed | None
    error: str
    chain_complete: bool
    missing: list[str]
    dated_by_text: bool
    amendments: list[AmendmentView]
    pasals: list[PasalView]
    unparsed: list[InstructionView] = field(default_factory=list)
    conflicts: list[InstructionView] = field(default_factory=list)
    bab_titles: dict[str, str] = field(default_factory=dict)  # "II" → "BAB II TINDAK …"

    def outline(self) -> list[tuple[str, list[PasalView]]]:
        """The Pasal grouped by their BAB, in order (BAB → Pasal), each BAB by its title."""
        groups: list[tuple[str, list[PasalView]]] = []
        for pasal in self.pasals:
            title = self.bab_titles.get(pasal.bab) or (f"BAB {pasal.bab}" if pasal.bab else "")
            if not groups or groups[-1][0] != title:
                groups.append((title, []))
            groups[-1][1].append(pasal)
        return groups

    def to_json(self) -> dict[str, Any]:
        return {
            "documentId": self.document_id,
            "citation": self.citation,
            "title": self.title,
            "asOf": self.as_of.isoformat(),
            "consolidated": self.consolidated,
            "state": self.state,
            "error": self.error or None,
            "chainComplete": self.chain_complete,
            "missing": list(self.missing),
            "datedByText": self.dated_by_text,
            "amendments": [a.to_json() for a in self.amendments],
            "pasals": [p.to_json() for p in self.pasals],
            "unparsed": [i.to_json() for i in self.unparsed],
            "conflicts": [i.to_json() for i in self.conflicts],
        }

    def as_text(self) -> str:
        """The plain "naskah konsolidasi": the notice, then each Pasal in force."""
        lines = [NOTICE, "", f"NASKAH KONSOLIDASI {self.citation or self.title}".upper()]
        lines.append(f"Keadaan pada tanggal {self.as_of.isoformat()}")
        if self.amendments:
            lines.append("sebagaimana telah diubah dengan " + ", ".join(_applied(self)))
        if not self.chain_complete:
            lines.append("Rangkaian perubahan tidak lengkap; tidak ada: " + ", ".join(self.missing))
        bab = ""
        for pasal in self.pasals:
            if pasal.state is None:
                continue
            title = self.bab_titles.get(pasal.bab) or (f"BAB {pasal.bab}" if pasal.bab else "")
            if title and title != bab:
                bab = title
                lines += ["", bab]
            body = "Dihapus." if pasal.state == PasalState.DELETED else pasal.text.strip()
            lines += ["", pasal.label, body]
        return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class UnitView:
    """One unit in force on ``as_of``, with the unit's wording in each Pasal version."""

    ref: str
    citation: str
    citation_full: str
    document_id: str
    label: str
    as_of: date
    pasal: PasalView
    text: str | None  # None: the unit is not in the wording in force (deleted, not yet)
    history: list[tuple[VersionView, str | None]]
    regulation_in_force: bool | None = True  # the regulation's own status (None: unknown)

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "citation": self.citation,
            "citationFull": self.citation_full,
            "documentId": self.document_id,
            "label": self.label,
            "asOf": self.as_of.isoformat(),
            "state": self.pasal.state,
            "text": self.text,
            "inForce": self.text is not None and self.pasal.in_force,
            "validFrom": _iso(self.pasal.valid_from),
            "validTo": _iso(self.pasal.valid_to),
            "changedBy": [c.to_json() for c in self.pasal.changed_by],
            "history": [
                v.to_json() | {"unitText": text, "text": v.text} for v, text in self.history
            ],
        }


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _applied(view: ConsolidatedRegulation) -> list[str]:
    return [a.citation for a in view.amendments if a.date is None or a.date <= view.as_of]


# --- a whole regulation ----------------------------------------------------------------


def consolidated_regulation(
    document: Document, as_of: date | None = None
) -> ConsolidatedRegulation:
    """``document``'s regulation (its current edition) as in force on ``as_of`` (today)."""
    on = as_of or today()
    current = current_edition(regulation_id(document)) or document
    row = Consolidation.objects.filter(document=current).first()
    if row is None or not row.versions.exists():
        return _unamended(current, row, on)
    histories = _histories(row)
    return ConsolidatedRegulation(
        document_id=str(current.pk),
        citation=current.citation,
        title=current.title,
        as_of=on,
        consolidated=True,
        state=row.state,
        error=row.error,
        chain_complete=row.chain_complete,
        missing=list(row.missing),
        dated_by_text=row.dated_by_text,
        amendments=_amendments(row),
        pasals=[_pasal_view(rows, on) for rows in histories],
        unparsed=_instructions(row, InstructionState.UNPARSED),
        conflicts=_instructions(row, InstructionState.CONFLICT),
        bab_titles=bab_titles(current),
    )


def bab_titles(document: Document) -> dict[str, str]:
    """Each BAB's heading as stored in the chunks' heading paths, by its numeral."""
    titles: dict[str, str] = {}
    paths = document.chunks.order_by("ordinal").values_list("heading_path", flat=True)
    for path in paths:
        first = path.split("›")[0].strip()
        match = _BAB_RE.match(first)
        if match is not None:
            titles.setdefault(match.group(1).upper(), first)
    return titles


def _unamended(document: Document, row: Consolidation | None, on: date) -> ConsolidatedRegulation:
    """A regulation without stored versions: its own Pasal, each the original wording."""
    text = stored_text(document)
    enacted = enacted_on(text)
    pasals = [
        _pasal_view(
            [
                PasalVersion(
                    number=p.number,
                    bab=p.bab or "",
                    state=PasalState.ORIGINAL,
                    text=p.text,
                    valid_from=enacted,
                )
            ],
            on,
        )
        for p in pasal_texts(text)
    ]
    return ConsolidatedRegulation(
        document_id=str(document.pk),
        citation=document.citation,
        title=document.title,
        as_of=on,
        consolidated=False,
        state=row.state if row else None,
        error=row.error if row else "",
        chain_complete=row.chain_complete if row else True,
        missing=list(row.missing) if row else [],
        dated_by_text=row.dated_by_text if row else True,
        amendments=_amendments(row) if row else [],
        pasals=pasals,
        unparsed=_instructions(row, InstructionState.UNPARSED) if row else [],
        conflicts=_instructions(row, InstructionState.CONFLICT) if row else [],
        bab_titles=bab_titles(document),
    )


def _histories(row: Consolidation, number: str | None = None) -> list[list[PasalVersion]]:
    versions = row.versions.select_related("amending_document", "instruction")
    if number is not None:
        versions = versions.filter(number=number)
    grouped: dict[int, list[PasalVersion]] = defaultdict(list)
    for version in versions.order_by("sort_order", "seq"):
        grouped[version.sort_order].append(version)
    return [grouped[key] for key in sorted(grouped)]


def _changed_by(version: PasalVersion) -> ChangedBy | None:
    amending = version.amending_document if version.amending_document_id else None
    if amending is None and version.instruction_id is None:
        return None
    instruction = version.instruction.source if version.instruction is not None else ""
    if amending is not None:
        citation = amending.citation or amending.title
    else:
        citation = instruction.split(" Pasal")[0]
    return ChangedBy(citation, str(amending.pk) if amending else None, instruction)


def version_in_force(
    periods: Sequence[tuple[str, date | None, date | None]], on: date
) -> int | None:
    """Which of a Pasal's wordings, given oldest first as ``(state, valid_from, valid_to)``,
    is in force on ``on`` (None: none yet), decided by ``text_at``."""
    versions = [
        Version(number="", state=PasalState(state), text="", valid_from=start, valid_to=end)
        for state, start, end in periods
    ]
    found = text_at(PasalHistory("", None, versions), on)
    return next((i for i, v in enumerate(versions) if v is found), None)


def _pasal_view(rows: Sequence[PasalVersion], on: date) -> PasalView:
    index = version_in_force([(r.state, r.valid_from, r.valid_to) for r in rows], on)
    current = rows[index] if index is not None else None
    views = [
        VersionView(
            state=r.state,
            text=r.text,
            valid_from=r.valid_from,
            valid_to=r.valid_to,
            changed_by=_changed_by(r),
            in_force=r is current,
        )
        for r in rows
    ]
    upto = rows.index(current) + 1 if current is not None else 0
    changed = [c for c in (_changed_by(r) for r in rows[:upto]) if c is not None]
    return PasalView(
        number=rows[0].number,
        bab=rows[0].bab,
        state=current.state if current else None,
        text=current.text if current and current.state != PasalState.DELETED else "",
        valid_from=current.valid_from if current else None,
        valid_to=current.valid_to if current else None,
        changed_by=changed,
        versions=views,
    )


def _amendments(row: Consolidation) -> list[AmendmentView]:
    views = []
    for amendment in row.amendments.select_related("amending_document").order_by("order"):
        counts = {state.value: 0 for state in InstructionState}
        for state in amendment.instructions.values_list("state", flat=True):
            counts[state] = counts.get(state, 0) + 1
        counts["total"] = sum(counts.values())
        # How many numbered items the Pasal I prints (an item lost in conversion included)
        # and how many of them read as an instruction: the reader shows both.
        ordinals = list(amendment.instructions.values_list("ordinal", flat=True))
        counts["numbered"] = max(ordinals, default=0)
        counts["read"] = counts["total"] - counts.get(InstructionState.UNPARSED.value, 0)
        views.append(
            AmendmentView(
                citation=amendment.citation,
                document_id=str(amendment.amending_document_id),
                title=amendment.amending_document.title,
                date=amendment.date,
                dated_by_text=amendment.dated_by_text,
                counts=counts,
            )
        )
    return views


def _instructions(row: Consolidation, state: InstructionState) -> list[InstructionView]:
    found = AmendmentInstruction.objects.filter(amendment__consolidation=row, state=state)
    return [
        InstructionView(
            source=i.source,
            amending=i.amendment.citation,
            operation=i.operation or None,
            target=i.target,
            state=i.state,
            text=i.text,
            reason=i.reason,
        )
        for i in found.select_related("amendment").order_by("amendment__order", "ordinal")
    ]


# --- one unit --------------------------------------------------------------------------


def regulation_document(ref: RegulationRef) -> Document | None:
    """The current edition of the regulation ``ref`` names, when it is here."""
    candidates = visible(
        Document.objects.filter(regulation_key=match_key(ref)).exclude(status__in=HIDDEN_STATUSES)
    )
    if ref.region:
        candidates = candidates.filter(regulation_region=ref.region.casefold())
    found = candidates.order_by("-created_at", "-id").first()
    current = current_edition(regulation_id(found)) if found is not None else None
    # A regulation the caller may not see reads like one that is not here.
    return current if current is not None and visible_ids([current.pk]) else None


def unit_in_force(ref: str, as_of: date | None = None) -> UnitView:
    """The unit ``ref`` names, in the wording in force on ``as_of`` (today)."""
    on = as_of or today()
    reference = parse_query_reference(ref)
    if reference.regulation is None or reference.unit is None:
        raise UnitNotFound(
            f"Rujukan \u201c{ref}\u201d tidak menyebut peraturan dan pasal"
            " (contoh: \u201cUU 11/2008 Pasal 26 ayat (3)\u201d)."
        )
    document = regulation_document(reference.regulation)
    short = reference.regulation.short or ref
    if document is None:
        raise RegulationNotFound(f"{short} tidak ada dalam korpus.", short)
    unit = reference.unit
    pasal = _find_pasal(document, unit.pasal, on)
    pasal = _visible_wordings(pasal) if pasal is not None else None
    if pasal is None:
        raise UnitNotFound(f"{short} tidak memuat Pasal {unit.pasal}.")
    text = _unit_text(unit, pasal.text) if pasal.in_force else None
    history = [(v, _unit_text(unit, v.text)) for v in pasal.versions]
    if text is None and pasal.in_force and not any(t for _, t in history):
        raise UnitNotFound(f"{short} Pasal {unit.pasal} tidak memuat {unit.label}.")
    citation = f"{document.citation or short} {unit.label}"
    return UnitView(
        ref=ref,
        citation=citation,
        citation_full=full_citation(citation, pasal.changed_by),
        document_id=str(document.pk),
        label=unit.label,
        as_of=on,
        pasal=pasal,
        text=text,
        history=history,
        regulation_in_force=document.in_force,
    )


def _visible_wordings(pasal: PasalView) -> PasalView | None:
    """Drops the wordings given by amending regulations the caller may not see; when the
    one in force was such a wording, the latest visible one stands in for it (None: the
    Pasal is only in hidden ones, as if it were not here)."""
    sources = {v.changed_by.document_id for v in pasal.versions if v.changed_by}
    sources |= {c.document_id for c in pasal.changed_by}
    sources.discard(None)
    if not sources:
        return pasal
    seen = visible_ids(sources)

    def shown(changed: ChangedBy | None) -> bool:
        return changed is None or changed.document_id is None or changed.document_id in seen

    versions = [v for v in pasal.versions if shown(v.changed_by)]
    if len(versions) == len(pasal.versions):
        return pasal
    if not versions:
        return None
    changed_by = [c for c in pasal.changed_by if shown(c)]
    last = versions[-1]
    deleted = last.state == PasalState.DELETED
    return replace(
        pasal,
        state=last.state,
        text="" if deleted else last.text,
        valid_from=last.valid_from,
        valid_to=last.valid_to,
        changed_by=changed_by,
        versions=versions,
    )


def full_citation(citation: str, changed_by: Sequence[ChangedBy]) -> str:
    """``UU 11/2008 Pasal 26 ayat (3) sebagaimana telah diubah dengan UU 19/2016``."""
    if not changed_by:
        return citation
    last = list(dict.fromkeys(c.citation for c in changed_by))
    if len(last) == 1:
        return f"{citation} sebagaimana telah diubah dengan {last[0]}"
    return f"{citation} sebagaimana telah beberapa kali diubah, terakhir dengan {last[-1]}"


def _find_pasal(document: Document, number: str, on: date) -> PasalView | None:
    row = Consolidation.objects.filter(document=document).first()
    if row is not None:
        histories = _histories(row, number)
        if histories:
            return _pasal_view(histories[0], on)
        if row.versions.exists():
            return None
    view = _unamended(document, None, on)
    return next((p for p in view.pasals if p.number == number), None)


def _unit_text(unit: UnitRef, pasal_text: str) -> str | None:
    """The named sub-unit of a Pasal's wording (the Pasal itself when none is named), read
    with the pipeline's own grammar."""
    if not pasal_text.strip():
        return None
    if unit.depth == 0:
        return pasal_text.strip()
    # The grammar reads a text as a regulation from its second Pasal on: a stand-in follows.
    text = f"Pasal {unit.pasal}\n{pasal_text.strip()}\nPasal {_STAND_IN}\n-\n"
    drafts = chunk_document([Block(text)], budget_tokens=100_000, overlap_tokens=0)
    wanted = (unit.pasal, unit.ayat, unit.huruf, unit.angka)
    for draft in drafts:
        for span in draft.units:
            if span.address == wanted and not span.penjelasan:
                return draft.text[span.start : span.end].strip()
    return None
