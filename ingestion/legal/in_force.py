"""In-force status: the partner's ``status_berlaku`` and the rule that combines it with
the relations found in the corpus. Pure Python.

A regulation is in force unless a regulation in the corpus repeals it; an amended
regulation stays in force. Where the partner states ``status_berlaku``, that value wins
(the JDIH registry knows about repeals by regulations we do not hold); both are shown.
A document that is not a regulation has no in-force status (None).
"""

from __future__ import annotations

import re
from enum import StrEnum

# JDIH portals write these in many spellings: "Berlaku", "Tidak Berlaku", "Dicabut",
# "Dicabut Sebagian", "Diubah", "Mencabut", "Masih Berlaku", "TIDAK BERLAKU LAGI".
_NOT_IN_FORCE_RE = re.compile(
    r"^(?:tidak\s+berlaku|sudah\s+tidak\s+berlaku|dicabut(?!\s+sebagian)|telah\s+dicabut|"
    r"kedaluwarsa|kadaluarsa|tidak\s+berlaku\s+lagi|dibatalkan)\b",
    re.IGNORECASE,
)
_IN_FORCE_RE = re.compile(
    r"^(?:berlaku|masih\s+berlaku|diubah|telah\s+diubah|mengubah|mencabut|"
    r"dicabut\s+sebagian|berlaku\s+sebagian|diubah\s+sebagian)\b",
    re.IGNORECASE,
)


class InForceSource(StrEnum):
    """Which fact decided ``inForce``."""

    PARTNER = "status_berlaku"
    RELATIONS = "relations"


def partner_in_force(value: object) -> bool | None:
    """The partner's ``status_berlaku`` as True / False, or None when absent or unknown."""
    if not isinstance(value, str):
        return None
    text = " ".join(value.replace("_", " ").split())
    if _NOT_IN_FORCE_RE.match(text):
        return False
    if _IN_FORCE_RE.match(text):
        return True
    return None


def decide(
    partner: bool | None, *, repealed: bool, is_regulation: bool
) -> tuple[bool | None, InForceSource | None]:
    """The in-force value and what decided it."""
    if partner is not None:
        return partner, InForceSource.PARTNER
    if repealed:
        return False, InForceSource.RELATIONS
    if is_regulation:
        return True, InForceSource.RELATIONS
    return None, None
