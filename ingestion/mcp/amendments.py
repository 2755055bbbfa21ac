"""Which Pasal an amending regulation changes, read from its own instructions.

A stop-gap until the consolidation store (branch consol-store) answers with the wording in
force: "Ketentuan Pasal 5, Pasal 6, … diubah", "Di antara Pasal 12 dan Pasal 13 disisipkan
… Pasal 12 A", "Pasal 43 dihapus". Only Pasal numbers are read; the sentence is kept as
evidence so a reader can check it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingestion.models import Chunk, Document

_PASAL = r"Pasal\s+(\d+\s?[A-Z]?)\b"
_LIST = rf"({_PASAL}(?:(?:\s*,\s*(?:dan\s+)?|\s+dan\s+){_PASAL})*)"
_CHANGED = re.compile(rf"Ketentuan\s+(?:ayat\s+\(\d+\)\s+)?{_LIST}[^.“\"]{{0,200}}?diubah", re.I)
_INSERTED = re.compile(rf"disisipkan\s+[^.“\"]{{0,80}}?{_LIST}", re.I)
_ADDED = re.compile(rf"ditambah(?:kan)?\s+[^.“\"]{{0,80}}?{_LIST}", re.I)
_DELETED = re.compile(rf"{_LIST}\s+dihapus", re.I)
_ONE = re.compile(_PASAL, re.I)


@dataclass(frozen=True, slots=True)
class Change:
    pasal: str  # "5", "12A"
    kind: str  # diubah | disisipkan | dihapus
    evidence: str


def _numbers(listed: str) -> list[str]:
    return [m.group(1).replace(" ", "").upper() for m in _ONE.finditer(listed)]


def changes_in(text: str) -> list[Change]:
    """Every Pasal an amending text says it changes, inserts or deletes, first mention wins."""
    found: dict[str, Change] = {}
    for pattern, kind in (
        (_CHANGED, "diubah"),
        (_INSERTED, "disisipkan"),
        (_ADDED, "disisipkan"),
        (_DELETED, "dihapus"),
    ):
        for match in pattern.finditer(text):
            sentence = text[max(0, match.start() - 20) : match.end() + 20].strip()
            for number in _numbers(match.group(1)):
                found.setdefault(number, Change(number, kind, " ".join(sentence.split())))
    return sorted(found.values(), key=lambda c: (int(re.sub(r"\D", "", c.pasal) or 0), c.pasal))


def document_changes(document: Document) -> list[Change]:
    """What ``document`` (an amending regulation) changes in the one it amends."""
    text = "\n".join(
        Chunk.objects.filter(document=document).order_by("ordinal").values_list("text", flat=True)
    )
    return changes_in(text)
