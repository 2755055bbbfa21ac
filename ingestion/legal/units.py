"""Legal units inside a chunk: the Pasal, its ayat, huruf and angka, with spans and pages.

The chunker (:mod:`ingestion.pipeline.chunk`) renders a chunk from text atoms; each atom of
a Pasal carries its :data:`Address` — the ayat/huruf/angka it belongs to, outermost first
(``(("ayat", "4"), ("huruf", "g"))``). This module assigns the addresses and turns a
chunk's atoms with their character offsets into :class:`UnitSpan` s: one for the Pasal (the
part of the chunk it covers), one for each run of atoms sharing an address prefix.

Nesting is the order the items appear in: inside an ayat the first item kind seen (huruf or
angka) is the outer one, the other nests under its latest item — ``Pasal 21 ayat (4) huruf
g``, ``Pasal 1 angka 3 huruf a``. PENJELASAN units carry ``penjelasan=True`` and the same
address as the unit they explain (``Penjelasan Pasal 5 ayat (2)``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

Address = tuple[tuple[str, str], ...]

_AYAT_LABEL_RE = re.compile(r"^ayat \((?P<no>[^)]+)\)$")
_ITEM_RE = re.compile(r"^(?P<kind>huruf|angka) (?P<no>\S+)$")
_PASAL_RE = re.compile(r"^Pasal (?P<no>\d+[A-Z]?|[IVX]+)$")  # II: an amending law's own
# A PENJELASAN unit's label is the label of the unit it explains after this prefix.
PENJELASAN_PREFIX = "Penjelasan "
# The top of a heading path outside a regulation's body: its elucidation and its annexes.
ELUCIDATION, ANNEX = "PENJELASAN", "LAMPIRAN"


def path_top(heading_path: str) -> str:
    """:data:`ELUCIDATION` or :data:`ANNEX` when a heading path lies in the Penjelasan or a
    Lampiran ("LAMPIRAN II › …"), else "" (the body, or what precedes it)."""
    head = heading_path.split("›", 1)[0].strip().upper()
    return next((top for top in (ELUCIDATION, ANNEX) if head.startswith(top)), "")


_PASAL_PART_RE = re.compile(r"^Pasal\b")


def above_pasal(heading_path: str) -> str:
    """The section titles above a heading path's Pasal: "BAB II … › Bagian Kesatu Umum" of
    "BAB II … › Bagian Kesatu Umum › Pasal 12 › ayat (1)"; the whole path outside a Pasal."""
    parts = [part.strip() for part in heading_path.split("›")]
    cut = next((i for i, part in enumerate(parts) if _PASAL_PART_RE.match(part)), len(parts))
    return " › ".join(parts[:cut])


class UnitKind(StrEnum):
    PASAL = "pasal"
    AYAT = "ayat"
    HURUF = "huruf"
    ANGKA = "angka"


def unit_label(
    pasal: str | None,
    ayat: str | None = None,
    huruf: str | None = None,
    angka: str | None = None,
    order: Sequence[str] = ("ayat", "huruf", "angka"),
) -> str:
    """The one canonical form of a unit's label: ``Pasal 21 ayat (4) huruf g``.

    ``order`` is the nesting below the Pasal (``Pasal 1 angka 3 huruf a``); a missing part
    is left out, so a relative reference reads ``ayat (1)``.
    """
    parts = [f"Pasal {pasal}"] if pasal else []
    values = {"ayat": ayat, "huruf": huruf, "angka": angka}
    for level in order:
        value = values[level]
        if value:
            parts.append(f"ayat ({value})" if level == "ayat" else f"{level} {value}")
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class UnitSpan:
    """One addressable unit inside one chunk's text (``text[start:end]``)."""

    kind: UnitKind
    pasal: str
    ayat: str | None
    huruf: str | None
    angka: str | None
    start: int
    end: int
    page: int
    penjelasan: bool
    order: tuple[str, ...]  # the levels below the Pasal, outermost first

    @property
    def label(self) -> str:
        """``Pasal 21 ayat (4) huruf g``; ``Penjelasan Pasal 5 ayat (2)``."""
        label = unit_label(self.pasal, self.ayat, self.huruf, self.angka, self.order)
        return f"{PENJELASAN_PREFIX}{label}" if self.penjelasan else label

    @property
    def address(self) -> tuple[str, str | None, str | None, str | None]:
        return (self.pasal, self.ayat, self.huruf, self.angka)

    def as_json(self) -> dict[str, str | None]:
        return {"pasal": self.pasal, "ayat": self.ayat, "huruf": self.huruf, "angka": self.angka}


def pasal_number(path: Sequence[str]) -> str | None:
    """The Pasal a section path ends in (``[…, "Pasal 21"]`` → ``"21"``)."""
    if not path:
        return None
    match = _PASAL_RE.match(path[-1])
    return match.group("no") if match else None


def ayat_of(label: str | None) -> str | None:
    match = _AYAT_LABEL_RE.match(label or "")
    return match.group("no") if match else None


class AddressTracker:
    """Assigns addresses to the atoms of one Pasal unit (an ayat, or a top-level item)."""

    def __init__(self, unit_label: str | None) -> None:
        self.base: Address = ()
        ayat = ayat_of(unit_label)
        if ayat is not None:
            self.base = (("ayat", ayat),)
        self.items: list[tuple[str, str]] = []

    def address(self, item: str | None) -> Address:
        if item:
            match = _ITEM_RE.match(item)
            if match:
                self._enter(match.group("kind"), match.group("no"))
        return self.base + tuple(self.items)

    def _enter(self, kind: str, number: str) -> None:
        for depth, (level, _) in enumerate(self.items):
            if level == kind:
                # A sibling at this depth closes everything nested below it.
                self.items = [*self.items[:depth], (kind, number)]
                return
        self.items.append((kind, number))


@dataclass(frozen=True, slots=True)
class PlacedAtom:
    """An atom's place in the rendered chunk text."""

    start: int
    end: int
    page: int
    address: Address


def unit_spans(path: Sequence[str], atoms: Sequence[PlacedAtom]) -> list[UnitSpan]:
    """The Pasal and its sub-units covered by one chunk, outer before inner."""
    penjelasan = bool(path) and path[0] == "PENJELASAN"
    pasal = pasal_number(section_path(path))
    if pasal is None or not atoms:
        return []
    spans = [_span(pasal, (), atoms, penjelasan)]
    depth = max(len(a.address) for a in atoms)
    for level in range(1, depth + 1):
        run: list[PlacedAtom] = []
        for atom in atoms:
            prefix = atom.address[:level]
            if run and (len(prefix) < level or run[0].address[:level] != prefix):
                spans.append(_span(pasal, run[0].address[:level], run, penjelasan))
                run = []
            if len(prefix) == level:
                run.append(atom)
        if run:
            spans.append(_span(pasal, run[0].address[:level], run, penjelasan))
    return sorted(spans, key=lambda s: (s.start, -s.end))


def section_path(path: Sequence[str]) -> Sequence[str]:
    """The chunk path without the ayat/item label a split Pasal appends."""
    if path and (ayat_of(path[-1]) is not None or _ITEM_RE.match(path[-1])):
        return path[:-1]
    return path


def _span(pasal: str, address: Address, run: Sequence[PlacedAtom], penjelasan: bool) -> UnitSpan:
    values = dict(address)
    return UnitSpan(
        kind=UnitKind(address[-1][0]) if address else UnitKind.PASAL,
        pasal=pasal,
        ayat=values.get("ayat"),
        huruf=values.get("huruf"),
        angka=values.get("angka"),
        start=run[0].start,
        end=run[-1].end,
        page=run[0].page,
        penjelasan=penjelasan,
        order=tuple(level for level, _ in address),
    )


def unit_context(text: str, spans: Sequence[UnitSpan], unit: UnitSpan) -> str:
    """What a sub-unit needs to be understood alone: its parents' lead-in text.

    ``huruf g`` of ``ayat (4)`` is read with "(4) Permohonan … dilengkapi dengan:"; the
    lead of a parent is its text up to its first child.
    """
    leads: list[str] = []
    for parent in spans:
        if parent is unit or not (parent.start <= unit.start and unit.end <= parent.end):
            continue
        if len(parent.order) >= len(unit.order) or parent.kind == UnitKind.PASAL:
            continue
        children = [
            s.start
            for s in spans
            if len(s.order) == len(parent.order) + 1 and parent.start <= s.start < parent.end
        ]
        end = min(children) if children else parent.end
        leads.append(text[parent.start : end].strip())
    return "\n".join(lead for lead in leads if lead)


def is_embedded(span: UnitSpan) -> bool:
    """Sub-units get their own vector; a Pasal is already embedded as its chunk."""
    return bool(span.order)


def unit_passage(heading: str, chunk_text: str, spans: Sequence[UnitSpan], span: UnitSpan) -> str:
    """What a unit is embedded and indexed as: heading path, parents' lead-in, its text."""
    return unit_lines(
        heading, unit_context(chunk_text, spans, span), chunk_text[span.start : span.end]
    )


def unit_lines(*parts: str) -> str:
    """The non-empty parts, one per line. A unit row stores ``unit_lines(heading, lead-in)``
    as its context, so ``unit_lines(context, text)`` is its passage again (the rule
    ``LegalUnit.passage_digest`` spells out in SQL)."""
    return "\n".join(part for part in parts if part)


def unit_anchor(pasal: str, ayat: str | None = None, penjelasan: bool = False) -> str:
    """The id of a unit on the document page: ``unit-pasal-21-ayat-4`` (the outline goes
    down to ayat, so a huruf or angka links to its ayat, or to its Pasal)."""
    anchor = f"unit-pasal-{pasal.lower()}"
    if ayat:
        anchor += f"-ayat-{ayat.lower()}"
    return f"{anchor}-penjelasan" if penjelasan else anchor
