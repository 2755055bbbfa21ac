"""Cross-references inside a regulation: "sebagaimana dimaksud dalam Pasal 5 ayat (2)".

Pure Python. :func:`find_references` reads every reference in a passage with its span;
each names a unit absolutely (``Pasal 5 ayat (2) huruf a``) or relative to where it stands
(``pada ayat (1)``: the same Pasal; ``huruf a``: the same ayat). :func:`resolve` turns a
relative reference into an address using the Pasal and ayat the passage is in.
A reference followed by another regulation's name (``Pasal 3 Undang-Undang Nomor 11 Tahun
2006``) carries that regulation; one followed by "… ini" stays in the same regulation.

Enumerations are read whole: ``ayat (3), ayat (4), dan ayat (5)`` is three references,
``huruf a dan b`` two, ``Pasal 4 dan Pasal 5`` two.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ingestion.legal.citation import RegulationRef, find_regulations
from ingestion.legal.units import unit_label

_INTRO_RE = re.compile(
    r"\b(?:sebagaimana\s+)?(?:dimaksud|diatur|tersebut|tercantum)\s+(?:dalam|pada|di\s*dalam)\s+",
    re.IGNORECASE,
)
_PASAL = r"Pasal\s+(?P<pasal>\d+[A-Z]?)"
_AYAT = r"ayat\s*\(\s*(?P<ayat>\d+[a-z]?)\s*\)"
_HURUF = r"huruf\s+(?P<huruf>[a-z])\b"
_ANGKA = r"angka\s+(?P<angka>\d+)\b"
_UNIT_RE = re.compile(
    rf"(?:{_PASAL})?(?:\s*{_AYAT})?(?:\s*{_HURUF})?(?:\s*{_ANGKA})?",
    re.IGNORECASE,
)
_SEPARATOR_RE = re.compile(
    r"\s*(?:,\s*(?:dan|atau|serta)?|dan|atau|serta|sampai\s+dengan)\s+", re.I
)
# "huruf a dan b", "huruf a, huruf b": a bare letter continues the last kind.
_BARE_LETTER_RE = re.compile(r"(?P<huruf>[a-z])\b(?!\.\w)")
_SAME_REGULATION_RE = re.compile(r"\s*(?:[\w-]+\s+){1,3}ini\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Address:
    pasal: str | None = None
    ayat: str | None = None
    huruf: str | None = None
    angka: str | None = None

    @property
    def label(self) -> str:
        return unit_label(self.pasal, self.ayat, self.huruf, self.angka)

    def as_json(self) -> dict[str, str | None]:
        return {"pasal": self.pasal, "ayat": self.ayat, "huruf": self.huruf, "angka": self.angka}


@dataclass(frozen=True, slots=True)
class CrossRef:
    address: Address  # as written: may lack the Pasal (relative)
    start: int
    end: int
    regulation: RegulationRef | None = None  # another regulation, when one is named

    @property
    def relative(self) -> bool:
        return self.address.pasal is None


def _address(match: re.Match[str]) -> Address | None:
    values = {k: match.group(k) for k in ("pasal", "ayat", "huruf", "angka")}
    if not any(values.values()):
        return None
    pasal = values.pop("pasal")
    return Address(pasal=pasal.upper() if pasal else None, **values)


def _enumeration(text: str, start: int) -> list[tuple[Address, int, int]]:
    """The units named from ``start`` on: the first, then each "dan/, …" continuation."""
    found: list[tuple[Address, int, int]] = []
    position = start
    while True:
        match = _UNIT_RE.match(text, position)
        address = _address(match) if match else None
        if match is not None and address is None and found and found[-1][0].huruf:
            bare = _BARE_LETTER_RE.match(text, position)
            if bare is not None:
                address = Address(huruf=bare.group("huruf"))
                match = bare
        if match is None or address is None:
            return found
        found.append((address, match.start(), match.end()))
        separator = _SEPARATOR_RE.match(text, match.end())
        if separator is None:
            return found
        position = separator.end()


def _inherit(previous: Address, current: Address) -> Address:
    """In "Pasal 5 ayat (1) dan ayat (2)" the second is Pasal 5's; a letter after "huruf a"
    keeps the ayat."""
    if current.pasal:
        return current
    if current.ayat:
        return replace(current, pasal=previous.pasal)
    return replace(current, pasal=previous.pasal, ayat=previous.ayat)


def find_references(text: str) -> list[CrossRef]:
    """Every cross-reference in ``text``, in order, with its span."""
    regulations = find_regulations(text)
    result: list[CrossRef] = []
    for intro in _INTRO_RE.finditer(text):
        units = _enumeration(text, intro.end())
        if not units:
            continue
        regulation = _following_regulation(text, units[-1][2], regulations)
        first = units[0][0]
        previous = first
        for index, (address, start, end) in enumerate(units):
            if index:
                address = _inherit(previous, address) if first.pasal else address
            previous = address
            result.append(CrossRef(address, start, end, regulation))
    return sorted(result + _before_regulations(text, regulations, result), key=lambda r: r.start)


_UNIT_BEFORE_RE = re.compile(
    rf"\b{_PASAL}(?:\s*{_AYAT})?(?:\s*{_HURUF})?(?:\s*{_ANGKA})?\s*,?\s*$", re.IGNORECASE
)


def _before_regulations(
    text: str,
    regulations: list[tuple[RegulationRef, tuple[int, int]]],
    known: list[CrossRef],
) -> list[CrossRef]:
    """``… sesuai dengan Pasal 3 Undang-Undang Nomor 11 Tahun 2006``: a unit right before a
    regulation's name is a reference to it, with or without "sebagaimana dimaksud"."""
    taken = {(r.start, r.end) for r in known}
    found: list[CrossRef] = []
    for ref, (start, _end) in regulations:
        window = max(0, start - 80)
        match = _UNIT_BEFORE_RE.search(text, window, start)
        address = _address(match) if match else None
        if match is None or address is None:
            continue
        span = (match.start(), match.start() + len(match.group(0).rstrip(" ,")))
        if span not in taken:
            found.append(CrossRef(address, span[0], span[1], ref))
    return found


def _following_regulation(
    text: str, end: int, regulations: list[tuple[RegulationRef, tuple[int, int]]]
) -> RegulationRef | None:
    """The regulation named right after the unit ("Pasal 3 Undang-Undang Nomor 11 …")."""
    if _SAME_REGULATION_RE.match(text, end):
        return None
    for ref, (start, _stop) in regulations:
        if start >= end:
            return ref if not text[end:start].strip(" ,") else None
    return None


def resolve(ref: CrossRef, pasal: str | None, ayat: str | None) -> Address | None:
    """The absolute address of ``ref`` read inside ``pasal``/``ayat``; None when a relative
    reference has no Pasal to stand in."""
    address = ref.address
    if address.pasal:
        return address
    if pasal is None:
        return None
    if address.ayat:
        return replace(address, pasal=pasal)
    return replace(address, pasal=pasal, ayat=ayat)


_PASAL_IN_PATH_RE = re.compile(r"(?:^|›\s*)Pasal\s+(\d+[A-Z]?)\s*(?:›|$)")
_AYAT_MARK_RE = re.compile(r"(?:^|\n)\s*\((\d{1,3}[a-z]?)\)\s")


def pasal_of_path(heading_path: str) -> str | None:
    """``"BAB I … › Pasal 7 › ayat (2)"`` → ``"7"``."""
    match = _PASAL_IN_PATH_RE.search(heading_path)
    return match.group(1) if match else None


def ayat_at(text: str, offset: int) -> str | None:
    """The ayat whose text holds ``offset``: the last "(n)" opening a line before it."""
    found = None
    for match in _AYAT_MARK_RE.finditer(text, 0, offset):
        found = match.group(1)
    return found
