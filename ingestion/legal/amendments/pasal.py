"""Split a regulation's body (not its Penjelasan) into its Pasal, in order."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PasalText:
    """One Pasal: its number (``"27A"``), the Bab it stands in, its body without heading."""

    number: str
    bab: str | None
    text: str


def pasal_texts(text: str) -> list[PasalText]:
    """The Pasal of ``text`` in document order."""
    return []
