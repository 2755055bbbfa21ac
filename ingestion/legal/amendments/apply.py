"""Apply a chain of amendments to the original Pasal: every Pasal's versions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from ingestion.legal.amendments.model import AmendmentText, Instruction
from ingestion.legal.amendments.pasal import PasalText
from ingestion.legal.citation import RegulationRef


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


@dataclass
class Consolidation:
    """A regulation's Pasal after its chain of amendments, with what could not be applied."""

    pasals: list[PasalHistory] = field(default_factory=list)
    applied: list[Instruction] = field(default_factory=list)
    conflicts: list[tuple[Instruction, str]] = field(default_factory=list)
    unparsed: list[Instruction] = field(default_factory=list)
    missing: list[RegulationRef] = field(default_factory=list)
    chain_complete: bool = True
    dated_by_text: bool = True


def consolidate(
    original: Sequence[PasalText],
    original_date: date | None,
    amendments: Sequence[AmendmentText],
    amending_refs: Sequence[RegulationRef],
) -> Consolidation:
    """Apply ``amendments`` (``amending_refs[i]`` enacted ``amendments[i]``) to ``original``."""
    return Consolidation()


def text_at(history: PasalHistory, on: date) -> Version | None:
    """The version of ``history`` in force on ``on``, or None (not yet, or no version)."""
    return None
