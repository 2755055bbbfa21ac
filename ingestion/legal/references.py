"""Reference-aware queries: the unit and the regulation a search query names.

``parse_query_reference(text)`` reads, in any order and case:

- a unit: ``Pasal 5``, ``pasal 21A``, ``ayat (2)`` / ``ayat 2``, ``huruf b``, ``angka 3``
  (an ayat, huruf or angka counts only after a Pasal);
- a regulation by number: anything :func:`ingestion.legal.citation.find_regulations`
  reads (``PP 35/2021``, ``pp 35 tahun 2021``, ``UU No. 13 Tahun 2003``, ``Qanun Aceh
  Nomor 7 Tahun 2019``);
- or a regulation by name: a jenis followed by words, ``uu ketenagakerjaan`` → jenis
  ``Undang-Undang``, name ``ketenagakerjaan``. The name is resolved against the titles of
  the documents in the corpus by the search (:mod:`ingestion.legal.search`), never
  against a list of laws kept here.

``rest`` is the query without the parts that were read: what is left for the hybrid
search ("" for a pure reference).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingestion.legal.citation import JENIS_RE, RegulationRef, canonical_jenis, find_regulations
from ingestion.legal.units import unit_label

_UNIT_RE = re.compile(
    r"\b(?:pasal|psl\.?)\s*(?P<pasal>\d{1,4}[a-z]?)\b"
    r"(?:\s*,?\s*ayat\s*(?:\(\s*(?P<ayat_p>\d{1,3}[a-z]?)\s*\)|(?P<ayat>\d{1,3}[a-z]?)\b))?"
    r"(?:\s*,?\s*huruf\s+(?P<huruf>[a-z])\b)?"
    r"(?:\s*,?\s*angka\s+(?P<angka>\d{1,3})\b)?",
    re.IGNORECASE,
)
_NAME_WORD = (
    r"(?!(?:pasal|psl|ayat|huruf|angka|nomor|no|tahun|dan|atau|yang|tentang|ini|itu|tersebut|"
    r"di|ke|dari|untuk|dengan|sebagaimana|dimaksud|mengatur|menurut|berlaku)\b)[^\W\d_]{2,}"
)
_NAME_RE = re.compile(
    r"\s+(?:tentang\s+)?(?P<name>" + _NAME_WORD + r"(?:\s+" + _NAME_WORD + r"){0,4})", re.I
)


@dataclass(frozen=True, slots=True)
class UnitRef:
    pasal: str
    ayat: str | None = None
    huruf: str | None = None
    angka: str | None = None

    @property
    def label(self) -> str:
        return unit_label(self.pasal, self.ayat, self.huruf, self.angka)

    @property
    def depth(self) -> int:
        return sum(1 for part in (self.ayat, self.huruf, self.angka) if part)


@dataclass(frozen=True, slots=True)
class RegulationName:
    """``uu ketenagakerjaan``: a jenis and the words of its title, not yet resolved."""

    jenis: str
    name: str


@dataclass(frozen=True, slots=True)
class QueryReference:
    unit: UnitRef | None = None
    regulation: RegulationRef | None = None
    name: RegulationName | None = None
    rest: str = ""

    @property
    def names_something(self) -> bool:
        return bool(self.unit or self.regulation or self.name)


def _unit(text: str) -> tuple[UnitRef | None, tuple[int, int] | None]:
    match = _UNIT_RE.search(text)
    if match is None:
        return None, None
    pasal = match.group("pasal").upper()
    ayat = match.group("ayat_p") or match.group("ayat")
    huruf = match.group("huruf")
    ref = UnitRef(pasal, ayat, huruf.lower() if huruf else None, match.group("angka"))
    return ref, match.span()


def _name(text: str) -> tuple[RegulationName | None, tuple[int, int] | None]:
    for jenis_match in JENIS_RE.finditer(text):
        jenis = canonical_jenis(jenis_match.group(0))
        name = _NAME_RE.match(text, jenis_match.end())
        if jenis is not None and name is not None:
            words = " ".join(name.group("name").split()).lower()
            return RegulationName(jenis.name, words), (jenis_match.start(), name.end())
    return None, None


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    kept, last = [], 0
    for start, end in sorted(spans):
        kept.append(text[last:start])
        last = max(last, end)
    kept.append(text[last:])
    return " ".join("".join(kept).split())


def parse_query_reference(text: str) -> QueryReference:
    """The unit and regulation a query names; see the module docstring."""
    spans: list[tuple[int, int]] = []
    unit, unit_span = _unit(text)
    if unit_span:
        spans.append(unit_span)
    # A regulation mention never overlaps the unit ("Pasal 5 ayat (2) PP 35/2021").
    masked = text if unit_span is None else _mask(text, unit_span)
    mentions = find_regulations(masked)
    regulation = mentions[0][0] if mentions else None
    name: RegulationName | None = None
    if mentions:
        spans.append(mentions[0][1])
    else:
        name, name_span = _name(masked)
        if name_span:
            spans.append(name_span)
    return QueryReference(unit, regulation, name, _without(text, spans))


def _mask(text: str, span: tuple[int, int]) -> str:
    start, end = span
    return text[:start] + " " * (end - start) + text[end:]
