"""Apply a chain of amendments to the original Pasal: every Pasal's versions.

Amendments apply in the order they came into force (the date their text states; without
one for every amendment, by year and number, and ``dated_by_text`` says so). A restated
Pasal replaces the whole wording; an instruction that changes one ayat, huruf or angka
without restating the Pasal edits that unit inside the wording. An instruction naming a
unit the Pasal does not have is a conflict: it is reported and not applied.

Versions are closed periods: a wording is in force from ``valid_from`` up to, not
including, ``valid_to`` (None: still in force, as NeuRIS' open end and LEGI's "VIGUEUR").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum

from ingestion.legal.amendments.model import AmendmentText, Instruction, Operation, Target
from ingestion.legal.amendments.pasal import PasalText, pasal_key
from ingestion.legal.citation import RegulationRef

DELETED_TEXT = "Dihapus."

logger = logging.getLogger(__name__)


class PasalState(StrEnum):
    """A version's state: original → amended / deleted; inserted → amended / deleted."""

    ORIGINAL = "original"
    AMENDED = "amended"
    INSERTED = "inserted"
    DELETED = "deleted"


@dataclass(frozen=True)
class Version:
    """One wording of a Pasal and the period it was in force (valid_to None: still is)."""

    number: str
    state: PasalState
    text: str
    valid_from: date | None
    valid_to: date | None
    instruction: Instruction | None = None
    amending: RegulationRef | None = None


@dataclass
class PasalHistory:
    """Every wording of one Pasal, oldest first; the last is in force."""

    number: str
    bab: str | None
    versions: list[Version] = field(default_factory=list)
    bagian: str | None = None

    @property
    def current(self) -> Version:
        return self.versions[-1]


@dataclass
class Consolidation:
    """A regulation's Pasal after its chain of amendments, with what could not be applied."""

    pasals: list[PasalHistory] = field(default_factory=list)
    applied: list[Instruction] = field(default_factory=list)
    conflicts: list[tuple[Instruction, str]] = field(default_factory=list)
    unparsed: list[Instruction] = field(default_factory=list)
    missing: list[RegulationRef] = field(default_factory=list)
    # Applied, but worth a reviewer's look: an ayat the instruction names is not in the
    # Pasal's old wording (mostly lost in conversion) while the whole Pasal is restated.
    warnings: list[tuple[Instruction, str]] = field(default_factory=list)
    chain_complete: bool = True
    dated_by_text: bool = True


@dataclass(frozen=True)
class _Step:
    """What one instruction brings: its date and the amending regulation."""

    instruction: Instruction
    when: date | None
    amending: RegulationRef | None


def consolidate(
    original: Sequence[PasalText],
    original_date: date | None,
    amendments: Sequence[AmendmentText],
    amending_refs: Sequence[RegulationRef],
) -> Consolidation:
    """Apply ``amendments`` (``amending_refs[i]`` enacted ``amendments[i]``) to ``original``."""
    result = Consolidation()
    result.pasals = [
        PasalHistory(
            p.number,
            p.bab,
            [Version(p.number, PasalState.ORIGINAL, p.text, original_date, None)],
            p.bagian,
        )
        for p in original
    ]
    refs = list(amending_refs) + [None] * (len(amendments) - len(amending_refs))
    ordered, result.dated_by_text = _order(list(zip(amendments, refs, strict=True)))
    result.missing = _missing(amendments, amending_refs)
    result.chain_complete = not result.missing
    for amendment, ref in ordered:
        when = amendment.effective or amendment.enacted
        for instruction in amendment.instructions:
            if instruction.operation is None:
                result.unparsed.append(instruction)
                continue
            warning = _missing_ayat(result.pasals, instruction) if instruction.new_pasal else ""
            conflict = _apply_safely(result.pasals, _Step(instruction, when, ref))
            if warning and not conflict:
                result.warnings.append((instruction, warning))
            if conflict:
                result.conflicts.append((instruction, conflict))
            else:
                result.applied.append(instruction)
    return result


def text_at(history: PasalHistory, on: date) -> Version | None:
    """The version of ``history`` in force on ``on``, or None (not yet, or no version)."""
    for version in history.versions:
        started = version.valid_from is None or version.valid_from <= on
        ended = version.valid_to is not None and version.valid_to <= on
        if started and not ended:
            return version
    return None


def _order(
    pairs: list[tuple[AmendmentText, RegulationRef | None]],
) -> tuple[list[tuple[AmendmentText, RegulationRef | None]], bool]:
    """Date order when every amendment states its date, else year and number order."""
    dated = all((a.effective or a.enacted) is not None for a, _ in pairs)

    def number_key(pair: tuple[AmendmentText, RegulationRef | None]) -> tuple[int, int]:
        ref = pair[1]
        return (_int(ref.tahun if ref else None), _int(ref.nomor if ref else None))

    if dated:
        return sorted(pairs, key=lambda p: (p[0].effective or p[0].enacted, number_key(p))), True
    return sorted(pairs, key=number_key), False


def _int(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 10**6


def _missing(
    amendments: Sequence[AmendmentText], amending_refs: Sequence[RegulationRef]
) -> list[RegulationRef]:
    """Earlier amendments the texts name that are not in the chain supplied."""
    have = {ref.key for ref in amending_refs}
    missing: list[RegulationRef] = []
    for amendment in amendments:
        for ref in amendment.earlier:
            if ref.key not in have and ref not in missing:
                missing.append(ref)
    return missing


# --- one instruction ---------------------------------------------------------------------


def _find(pasals: list[PasalHistory], number: str | None) -> int | None:
    if number is None:
        return None
    for index, history in enumerate(pasals):
        if history.number == number:
            return index
    return None


def _live(history: PasalHistory) -> bool:
    return history.current.state is not PasalState.DELETED


def _add_version(history: PasalHistory, state: PasalState, text: str, step: _Step) -> None:
    current = history.current
    history.versions[-1] = replace(current, valid_to=step.when)
    history.versions.append(
        Version(history.number, state, text, step.when, None, step.instruction, step.amending)
    )


def _apply_safely(pasals: list[PasalHistory], step: _Step) -> str:
    """Errors are data: an instruction that breaks the engine is a conflict, not a crash."""
    try:
        return _apply(pasals, step)
    except Exception:  # one bad instruction must not stop the rest of the chain
        logger.warning(
            "amendments: %s could not be applied", step.instruction.source, exc_info=True
        )
        return "Perintah ini tidak dapat diterapkan secara otomatis."


def _apply(pasals: list[PasalHistory], step: _Step) -> str:
    """Apply one instruction; the reason it cannot be applied ("" when it was)."""
    instruction = step.instruction
    if instruction.operation is Operation.PENJELASAN:
        return ""
    conflict = _check_units(pasals, instruction)
    if conflict:
        return conflict
    if instruction.new_pasal and _restates_only_named_ayat(pasals, instruction):
        body = "\n".join(new.text for new in instruction.new_pasal)
        return _edit_units(pasals, replace(step, instruction=replace(instruction, body=body)))
    if instruction.new_pasal:
        _drop_left_out(pasals, step)
        return _restate(pasals, step)
    if instruction.operation is Operation.DELETE:
        return _delete(pasals, step)
    if all(t.pasal is None for t in instruction.targets):
        return ""  # a Bab / Bagian heading's new title: no Pasal wording changes
    if instruction.words and not _new_wording_given(instruction):
        return _replace_words(pasals, step)
    return _edit_units(pasals, step)


def _restates_only_named_ayat(pasals: list[PasalHistory], instruction: Instruction) -> bool:
    """'Mengubah ketentuan Pasal 23 ayat (4), sehingga berbunyi: "Pasal 23 (4) …"': the
    quoted wording repeats the Pasal's heading but holds exactly the ayat the instruction
    names, and the Pasal has others, which stay (PP 14/1998 on PP 50/1994). "… sehingga
    (keseluruhan) Pasal 23 berbunyi" restates the whole Pasal; so does a wording whose ayat
    OCR left unreadable, or one that holds every ayat the Pasal has (and adds one)."""
    lead = re.split(r"berbunyi|:", instruction.text, maxsplit=1)[0]
    if instruction.operation is not Operation.REPLACE or _WHOLE_PASAL_RE.search(lead):
        return False
    named: dict[str, set[str]] = {}
    for target in instruction.targets:
        if not (target.pasal and target.ayat) or target.huruf or target.angka:
            return False
        named.setdefault(target.pasal, set()).add(target.ayat)
    given = {new.number: _ayat_numbers(new.text) for new in instruction.new_pasal}
    if not named or given != named:
        return False
    for number, ayat in given.items():
        index = _find(pasals, number)
        if index is None or _ayat_numbers(pasals[index].current.text) <= ayat:
            return False
    return True


def _ayat_numbers(text: str) -> set[str]:
    return set(_AYAT_NUMBER_RE.findall(text))


_WHOLE_PASAL_RE = re.compile(r"sehingga\s+(?:\S+\s+){0,2}pasal\b", re.IGNORECASE)
_AYAT_NUMBER_RE = re.compile(r"(?m)^[ \t]*\(\s*(\d+[a-z]?)\s*\)\s")


def _new_wording_given(instruction: Instruction) -> bool:
    return any(
        _new_unit_text(instruction.body, t) is not None
        for t in instruction.targets
        if t.ayat or t.huruf or t.angka
    )


def _replace_words(pasals: list[PasalHistory], step: _Step) -> str:
    """'perkataan "X" diganti dengan perkataan "Y"' in each Pasal (or unit) named."""
    assert step.instruction.words is not None
    old, new = step.instruction.words
    pattern = re.compile(r"\s+".join(re.escape(w) for w in old.split()))
    edits: list[tuple[PasalHistory, str]] = []
    for number in dict.fromkeys(t.pasal for t in step.instruction.targets if t.pasal):
        index = _find(pasals, number)
        if index is None or not _live(pasals[index]):
            return f"Pasal {number} tidak ada dalam peraturan yang diubah."
        text = pasals[index].current.text
        if not pattern.search(text):
            return f'Kata "{old}" tidak ditemukan dalam Pasal {number}.'
        edits.append((pasals[index], pattern.sub(new.replace("\\", "\\\\"), text)))
    for history, text in edits:
        _add_version(history, PasalState.AMENDED, text, step)
    return ""


def _check_units(pasals: list[PasalHistory], instruction: Instruction) -> str:
    """A conflict when a changed or deleted unit is not in the regulation it amends."""
    if instruction.operation not in (Operation.REPLACE, Operation.DELETE):
        return ""
    for target in instruction.targets:
        index = _find(pasals, target.pasal)
        if target.pasal and index is None:
            return f"Pasal {target.pasal} tidak ada dalam peraturan yang diubah."
        if instruction.new_pasal:
            continue  # the whole Pasal is restated: a named ayat missing is only a warning
        if (
            index is not None
            and target.ayat
            and not _has_ayat(pasals[index].current.text, target.ayat)
        ):
            lacking = f"Pasal {target.pasal} tidak memiliki ayat ({target.ayat})"
            return f"{target.label()} tidak ada: {lacking}."
        if target.bab and not target.pasal and instruction.operation is Operation.DELETE:
            if not any(in_part(p, target) for p in pasals):
                return f"{target.label()} tidak ada dalam peraturan yang diubah."
    return ""


def _missing_ayat(pasals: list[PasalHistory], instruction: Instruction) -> str:
    if instruction.operation not in (Operation.REPLACE, Operation.DELETE):
        return ""
    for target in instruction.targets:
        index = _find(pasals, target.pasal)
        if (
            index is not None
            and target.ayat
            and not _has_ayat(pasals[index].current.text, target.ayat)
        ):
            return f"{target.label()} tidak ditemukan dalam rumusan lama Pasal {target.pasal}."
    return ""


def in_part(history: PasalHistory | PasalText, target: Target) -> bool:
    """Does the Pasal stand in the Bab (and Bagian) ``target`` names?"""
    if history.bab != target.bab:
        return False
    return target.bagian is None or (history.bagian or "").lower() == target.bagian.lower()


def _has_ayat(text: str, ayat: str) -> bool:
    return bool(re.search(r"\(\s*" + re.escape(ayat) + r"\s*[)1l]", text))


def _drop_left_out(pasals: list[PasalHistory], step: _Step) -> None:
    """A Bab or Bagian restated whole ends the Pasal its new wording leaves out."""
    instruction = step.instruction
    if instruction.operation is not Operation.REPLACE:
        return
    kept = {p.number for p in instruction.new_pasal}
    for target in instruction.targets:
        if target.pasal or not target.bab:
            continue
        for history in pasals:
            if not (in_part(history, target) and _live(history)) or history.number in kept:
                continue
            # A heading OCR lost would read as a Pasal left out: only a Pasal the new
            # wording never names is ended.
            if not re.search(rf"\bPasal\s+{re.escape(history.number)}\b", instruction.body):
                _add_version(history, PasalState.DELETED, DELETED_TEXT, step)


def _restate(pasals: list[PasalHistory], step: _Step) -> str:
    """Each restated Pasal replaces the one it names, or is inserted where it belongs."""
    instruction = step.instruction
    last_inserted: int | None = None
    for new in instruction.new_pasal:
        index = _find(pasals, new.number)
        if index is not None:
            state = PasalState.AMENDED if _live(pasals[index]) else PasalState.INSERTED
            _add_version(pasals[index], state, new.text, step)
            last_inserted = index
            continue
        at = _insert_at(pasals, new.number, instruction, last_inserted)
        bab = _bab_for(pasals, at, instruction)
        bagian = (
            pasals[at - 1].bagian if 0 < at <= len(pasals) and pasals[at - 1].bab == bab else None
        )
        history = PasalHistory(new.number, bab, [], bagian)
        history.versions.append(
            Version(
                new.number,
                PasalState.INSERTED,
                new.text,
                step.when,
                None,
                instruction,
                step.amending,
            )
        )
        pasals.insert(at, history)
        last_inserted = at
    return ""


def _insert_at(
    pasals: list[PasalHistory], number: str, instruction: Instruction, last: int | None
) -> int:
    """Where a new Pasal goes: after the one inserted before it, after "di antara X", by number."""
    if last is not None:
        return last + 1
    after = _find(pasals, instruction.after.pasal if instruction.after else None)
    if after is not None:
        return after + 1
    key = pasal_key(number)
    position = 0
    for index, history in enumerate(pasals):
        if pasal_key(history.number) < key:
            position = index + 1
    return position


def _bab_for(pasals: list[PasalHistory], at: int, instruction: Instruction) -> str | None:
    for target in instruction.targets:
        if target.bab and not target.pasal and instruction.operation is Operation.INSERT:
            return target.bab
    if at > 0:
        return pasals[at - 1].bab
    return pasals[0].bab if pasals else None


def _delete(pasals: list[PasalHistory], step: _Step) -> str:
    instruction = step.instruction
    for target in instruction.targets:
        if target.pasal is None and not target.bab:
            continue  # a Lampiran's part: no Pasal wording changes
        if target.pasal is None and target.bab:
            for history in pasals:
                if in_part(history, target) and _live(history):
                    _add_version(history, PasalState.DELETED, DELETED_TEXT, step)
            continue
        index = _find(pasals, target.pasal)
        if index is None:
            return f"Pasal {target.pasal} tidak ada dalam peraturan yang diubah."
        history = pasals[index]
        if target.ayat or target.huruf or target.angka:
            edited = _replace_unit(history.current.text, target, DELETED_TEXT)
            if edited is None:
                return f"{target.label()} tidak ditemukan dalam rumusan Pasal {target.pasal}."
            _add_version(history, PasalState.AMENDED, edited, step)
        elif not _live(history):
            return f"Pasal {target.pasal} sudah dihapus sebelumnya."
        else:
            _add_version(history, PasalState.DELETED, DELETED_TEXT, step)
    return ""


# --- editing one ayat, huruf or angka ----------------------------------------------------


def _marker_re(target: Target) -> tuple[str, str]:
    """(kind, regex of that unit's marker at the start of a line)."""
    if target.huruf:
        return "huruf", r"(?m)^[ \t]*" + re.escape(target.huruf) + r"\.\s"
    if target.angka:
        return "angka", r"(?m)^[ \t]*" + re.escape(target.angka) + r"\.\s"
    return "ayat", r"(?m)^[ \t]*\(\s*" + re.escape(target.ayat or "") + r"\s*\)\s"


_ANY_MARKER = {
    "ayat": r"(?m)^[ \t]*\(\s*\d+[a-z]?\s*\)\s",
    "huruf": r"(?m)^[ \t]*[a-z]\d?\.\s",
    "angka": r"(?m)^[ \t]*\d+[a-z]?\.\s",
}


def _unit_span(text: str, target: Target) -> tuple[int, int] | None:
    """Where ``target``'s unit stands in a Pasal's wording (marker included)."""
    kind, marker = _marker_re(target)
    start_at, stop_at = 0, len(text)
    if kind != "ayat" and target.ayat:
        ayat = _unit_span(text, Target(pasal=target.pasal, ayat=target.ayat))
        if ayat is None:
            return None
        start_at, stop_at = ayat
    match = re.compile(marker).search(text, start_at, stop_at)
    if match is None:
        return None
    following = re.compile(_ANY_MARKER[kind]).search(text, match.end(), stop_at)
    if kind == "ayat":
        end = following.start() if following else stop_at
    else:
        outer = re.compile(_ANY_MARKER["ayat"]).search(text, match.end(), stop_at)
        ends = [m.start() for m in (following, outer) if m is not None]
        end = min(ends) if ends else stop_at
    return match.start(), end


def _label_of(target: Target) -> str:
    if target.huruf:
        return f"{target.huruf}."
    if target.angka:
        return f"{target.angka}."
    return f"({target.ayat})"


def _replace_unit(text: str, target: Target, wording: str) -> str | None:
    span = _unit_span(text, target)
    if span is None:
        return None
    start, end = span
    return f"{text[:start]}{_label_of(target)} {wording}\n{text[end:]}".rstrip()


def _new_unit_text(body: str, target: Target, alone: bool = False) -> str | None:
    """The wording the instruction gives ``target`` (its marker and what follows).

    A wording given for one unit without its marker ('Pasal 2 huruf b diubah sehingga
    berbunyi: "Menteri ialah …"') is that unit's whole wording when it is the only target.
    """
    body = _OCR_MARKER_RE.sub(_marker, body.strip(" \"“”'"))
    unit = Target(ayat=target.ayat, huruf=target.huruf, angka=target.angka)
    span = _unit_span(body, unit)
    if span is not None:
        return body[span[0] : span[1]].strip()
    kind = "huruf" if target.huruf else "angka" if target.angka else "ayat"
    if alone and body and not re.match(_ANY_MARKER[kind], body):
        return f"{_label_of(target)} {body}"
    return None


# "(1)Perusahaan" and "(la) …" (OCR'd "(1a)"): an ayat marker all the same.
_OCR_MARKER_RE = re.compile(r"(?m)^[ \t]*\((\d{1,3}[a-z]?|l[a-z])\)[ \t]*")


def _marker(match: re.Match[str]) -> str:
    number = match.group(1)
    return f"(1{number[1:]}) " if number.startswith("l") else f"({number}) "


def _edit_units(pasals: list[PasalHistory], step: _Step) -> str:
    """Replace or insert ayat / huruf / angka inside a Pasal whose wording is not restated."""
    instruction = step.instruction
    for target in instruction.targets:
        index = _find(pasals, target.pasal)
        if index is None or not _live(pasals[index]):
            return f"Pasal {target.pasal} tidak ada dalam peraturan yang diubah."
        if not (target.ayat or target.huruf or target.angka):
            return f"Rumusan baru Pasal {target.pasal} tidak ditemukan."
        history = pasals[index]
        alone = len(instruction.targets) == 1
        wording = _new_unit_text(instruction.body, target, alone)
        if wording is None:
            return f"Rumusan baru {target.label()} tidak ditemukan."
        text = history.current.text
        if instruction.operation is Operation.REPLACE:
            span = _unit_span(text, target)
            if span is None:
                return f"{target.label()} tidak ditemukan dalam rumusan Pasal {target.pasal}."
            edited = f"{text[: span[0]]}{wording}\n{text[span[1] :]}".rstrip()
        else:
            edited = _insert_unit(text, target, wording, instruction.after)
        _add_version(history, PasalState.AMENDED, edited, step)
    return ""


def _insert_unit(text: str, target: Target, wording: str, after: Target | None) -> str:
    """A new unit goes after the one "di antara" names, else at the end of its level."""
    if after is not None and (after.ayat or after.huruf or after.angka):
        span = _unit_span(text, replace(after, pasal=target.pasal))
        if span is not None:
            return f"{text[: span[1]].rstrip()}\n{wording}\n{text[span[1] :]}".rstrip()
    if target.ayat and (target.huruf or target.angka):
        span = _unit_span(text, Target(pasal=target.pasal, ayat=target.ayat))
        if span is not None:
            return f"{text[: span[1]].rstrip()}\n{wording}\n{text[span[1] :]}".rstrip()
    return f"{text.rstrip()}\n{wording}"
