"""What an amending regulation says: its target, its dates and its numbered instructions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from ingestion.legal.citation import RegulationRef


class Operation(StrEnum):
    """What one numbered instruction does to its target."""

    REPLACE = "replace"  # "Ketentuan Pasal 6 diubah sehingga berbunyi …"
    INSERT = "insert"  # "Di antara Pasal 27 dan Pasal 28 disisipkan …"
    DELETE = "delete"  # "Pasal 16 dihapus."
    ADD_UNITS = "add_units"  # "… ditambah 1 (satu) ayat, yakni ayat (4)"
    PENJELASAN = "penjelasan"  # "tetap dengan perubahan penjelasan": only the Penjelasan


@dataclass(frozen=True)
class Target:
    """A unit of the amended regulation; every level may be None (not named)."""

    bab: str | None = None
    bagian: str | None = None
    paragraf: str | None = None
    pasal: str | None = None
    ayat: str | None = None
    huruf: str | None = None
    angka: str | None = None
    lampiran: str | None = None  # "II", or "" for a regulation's only Lampiran

    def label(self) -> str:
        """``"Pasal 26 ayat (3)"``, ``"Bab V"``, ``"Pasal 5 ayat (1) huruf d1"``."""
        parts: list[str] = []
        if self.lampiran is not None:
            parts.append(f"Lampiran {self.lampiran}".strip())
        if self.bab and not self.pasal:
            parts.append(f"Bab {self.bab}")
        if self.bagian and not self.pasal:
            parts.append(f"Bagian {self.bagian}")
        if self.paragraf and not self.pasal:
            parts.append(f"Paragraf {self.paragraf}")
        if self.pasal:
            parts.append(f"Pasal {self.pasal}")
        if self.ayat:
            parts.append(f"ayat ({self.ayat})")
        if self.huruf:
            parts.append(f"huruf {self.huruf}")
        if self.angka:
            parts.append(f"angka {self.angka}")
        return " ".join(parts)


@dataclass(frozen=True)
class NewPasal:
    """A Pasal as the amending regulation restates it (body without the heading line)."""

    number: str
    text: str


@dataclass(frozen=True)
class Instruction:
    """One numbered item of Pasal I; ``operation`` None means it could not be read."""

    ordinal: int
    source: str
    operation: Operation | None
    targets: tuple[Target, ...] = ()
    after: Target | None = None
    before: Target | None = None
    new_pasal: tuple[NewPasal, ...] = ()
    text: str = ""
    reason: str = ""
    body: str = ""  # the new wording after "sebagai berikut:" (ayat-level edits read it)
    # ("Anggota ABRI", "Prajurit ABRI") for 'perkataan "…" diganti dengan perkataan "…"'
    words: tuple[str, str] | None = None

    @property
    def parsed(self) -> bool:
        return self.operation is not None


@dataclass(frozen=True)
class AmendmentText:
    """One amended regulation's share of an amending regulation."""

    target: RegulationRef | None
    earlier: tuple[RegulationRef, ...] = ()
    enacted: date | None = None
    effective: date | None = None
    instructions: tuple[Instruction, ...] = ()
