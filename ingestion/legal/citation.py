"""Regulation mentions and short citations (``UU 13/2003``, ``Qanun Aceh 7/2019``).

The one home of the jenis table (long names, abbreviations, which jenis carry a region)
and of the grammar that reads a regulation's name out of free text.

API (all pure, no Django):

- :class:`RegulationRef` ``(jenis, nomor, tahun, region)`` — a frozen dataclass. ``jenis``
  is the canonical long name (``"Peraturan Pemerintah"``), ``nomor``/``tahun`` the strings
  as printed (``"34"``, ``"2021"``), ``region`` the region (Perda, Pergub, Perbup, Perwal,
  Qanun …) or the issuing ministry/agency (Permen, Perba) without its level word
  (``"Banjarnegara"``, not ``"Kabupaten Banjarnegara"``; cities keep ``"Kota …"`` so Kota
  and Kabupaten Bandung stay apart). Any part may be None: unknown is never guessed.
  ``ref.short`` is the short citation or None; ``ref.key`` a case-folded tuple for matching
  one regulation against another.
- :func:`find_regulations(text) <find_regulations>` → ``[(RegulationRef, (start, end))]``:
  every mention that names a jenis and a nomor (with or without tahun), in text order, with
  its character span. ``Undang-Undang Nomor 11 Tahun 2008 tentang …``, ``UU No. 13 Tahun
  2003``, ``pp 35 tahun 2021``, ``PP 35/2021``, ``Peraturan Daerah Kabupaten Banjarnegara
  Nomor 8 Tahun 2023``, ``perbup pinrang 1/2019`` … A bare jenis (``Undang-Undang ini``) or
  ``Undang-Undang Dasar … Tahun 1945`` is not a mention.
- :func:`title_after(text, end) <title_after>` → the ``tentang …`` title that follows a
  mention ending at ``end``, or None (for relation targets that keep their title).
- :func:`parse_regulation(text) <parse_regulation>` → the regulation a title names, or None:
  the first mention, else a jenis at the start of the title plus any ``nomor/tahun``.
- :func:`short_citation(jenis, nomor, tahun, region) <short_citation>` → ``"PP 34/2021"``
  from loose parts such as ``sourceMetadata`` (``jenis`` may be a long name or an
  abbreviation, ``region`` may say ``"Kabupaten Pinrang"``); None without a known jenis and
  at least a nomor or tahun.
- :func:`ref_from_parts(jenis, nomor, tahun, region) <ref_from_parts>` → the same loose
  parts as a :class:`RegulationRef` (which regulation a *document* is, from its metadata,
  heading and title, is decided in :mod:`ingestion.legal.identity`).
- :func:`canonical_jenis(text) <canonical_jenis>` → the :class:`Jenis` a name or
  abbreviation denotes, or None.

Short form: ``<abbr>[ <region>] <nomor>/<tahun>``; with only a nomor ``PP 34``, with only
a tahun ``PP Tahun 2021``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Jenis:
    """A kind of regulation: its long name, its abbreviation, and the forms people write."""

    name: str
    abbr: str
    regional: bool  # a region / issuer may follow the name ("Peraturan Gubernur Bali")
    forms: tuple[str, ...]  # regex fragments, matched case-insensitively as whole words
    # Other spellings people search for, beside ``name`` and ``abbr`` (title labels).
    aliases: tuple[str, ...] = ()


_UU = r"undang[\s-]*undang"
JENIS: tuple[Jenis, ...] = (
    Jenis(
        "Peraturan Pemerintah Pengganti Undang-Undang",
        "Perppu",
        False,
        (rf"peraturan\s+pemerintah\s+pengganti\s+{_UU}", r"perpp?u"),
    ),
    # An emergency law of 1950-1959 ("Undang-undang Darurat No. 7 tahun 1955") is not the
    # UU of the same number and year; longest forms win, so it is never read as one.
    Jenis(
        "Undang-Undang Darurat",
        "UU Drt",
        False,
        (rf"{_UU}\s+darurat", r"uu\s*drt\.?", r"uudrt"),
    ),
    Jenis("Undang-Undang", "UU", False, (_UU, r"uu")),
    Jenis("Peraturan Pemerintah", "PP", False, (r"peraturan\s+pemerintah", r"pp")),
    Jenis("Peraturan Presiden", "Perpres", False, (r"peraturan\s+presiden", r"perpres")),
    Jenis("Keputusan Presiden", "Keppres", False, (r"keputusan\s+presiden", r"kepp?res")),
    Jenis("Instruksi Presiden", "Inpres", False, (r"instruksi\s+presiden", r"inpres")),
    Jenis("Peraturan Menteri", "Permen", True, (r"peraturan\s+menteri", r"permen")),
    Jenis("Keputusan Menteri", "Kepmen", True, (r"keputusan\s+menteri", r"kepmen")),
    Jenis("Peraturan Badan", "Perba", True, (r"peraturan\s+badan", r"perban?")),
    # Before 2019 agencies issued "Peraturan Kepala Badan …" (BAPETEN, BKN, BPOM); the
    # agency follows as the region does for a Perba.
    Jenis(
        "Peraturan Kepala Badan",
        "Perka",
        True,
        (r"peraturan\s+kepala\s+badan", r"perka(?:\s+badan)?"),
    ),
    Jenis("Peraturan Daerah", "Perda", True, (r"peraturan\s+daerah", r"perda")),
    Jenis("Peraturan Gubernur", "Pergub", True, (r"peraturan\s+gubernur", r"pergub")),
    Jenis("Keputusan Gubernur", "Kepgub", True, (r"keputusan\s+gubernur", r"kepgub")),
    Jenis("Instruksi Gubernur", "Ingub", True, (r"instruksi\s+gubernur", r"ingub")),
    Jenis("Peraturan Bupati", "Perbup", True, (r"peraturan\s+bupati", r"perbup")),
    Jenis("Keputusan Bupati", "Kepbup", True, (r"keputusan\s+bupati", r"kepbup")),
    Jenis(
        "Peraturan Wali Kota",
        "Perwal",
        True,
        (r"peraturan\s+wali\s*kota", r"perwal[ik]?"),
        ("Peraturan Walikota",),
    ),
    Jenis(
        "Keputusan Wali Kota",
        "Kepwal",
        True,
        (r"keputusan\s+wali\s*kota", r"kepwal[ik]?"),
        ("Keputusan Walikota",),
    ),
    Jenis("Qanun", "Qanun", True, (r"qanun",)),
    # A circular is no regulation, but people cite it the same way ("SE Gubernur 3/2020");
    # "SE" only in capitals: "se" is a common Indonesian prefix.
    Jenis("Surat Edaran", "SE", True, (r"surat\s+edaran", r"(?-i:SE)")),
    # Colonial ordinances still repealed by today's laws ("Ordonansi Nomor 9 Tahun 1949").
    Jenis("Ordonansi", "Ordonansi", False, (r"ordonansi",)),
)

# Ministry regulations are often written with the ministry folded into the abbreviation.
MINISTRY_ABBREVIATIONS: dict[str, str] = {
    "Permenaker": "Ketenagakerjaan",
    "Permendagri": "Dalam Negeri",
    "Permenkeu": "Keuangan",
    "Permenkes": "Kesehatan",
    "Permendikbud": "Pendidikan dan Kebudayaan",
    "Permenhub": "Perhubungan",
    "PermenPANRB": "Pendayagunaan Aparatur Negara dan Reformasi Birokrasi",
    "Permenkumham": "Hukum dan Hak Asasi Manusia",
}
_MINISTRY_BY_ABBR = {abbr.lower(): name for abbr, name in MINISTRY_ABBREVIATIONS.items()}
_MINISTRY_BY_NAME = {name.lower(): abbr for abbr, name in MINISTRY_ABBREVIATIONS.items()}

_BY_FORM: list[tuple[re.Pattern[str], Jenis]] = [
    (re.compile(form + r"$", re.IGNORECASE), jenis) for jenis in JENIS for form in jenis.forms
]
_ALL_FORMS = [*_MINISTRY_BY_ABBR, *(form for jenis in JENIS for form in jenis.forms)]
# Longest alternatives first so "Peraturan Pemerintah Pengganti …" beats "Peraturan Pemerintah".
JENIS_RE = re.compile(
    r"(?<![\w-])(?:" + "|".join(sorted(_ALL_FORMS, key=len, reverse=True)) + r")(?![\w-])",
    re.IGNORECASE,
)

_YEAR = r"(?:19|20)\d{2}(?!\d)"
_NUMBER_TAIL = (
    r"\s*,?\s*(?P<keyword>(?:nomor|nomer|no\.?|nr\.?)\s*:?\s*)?(?P<nomor>\d{1,4})(?![\d\w])"
    r"(?:\s*/\s*(?P<tahun_slash>" + _YEAR + r")"
    r"|\s*,?\s+(?:tahun|thn\.?|th\.?)\s*(?P<tahun_word>" + _YEAR + r")"
    r"|\s+(?P<tahun_bare>" + _YEAR + r"))?"
)
_NATIONAL_TAIL_RE = re.compile(r"(?:\s+(?:republik\s+indonesia|ri)\b)?" + _NUMBER_TAIL, re.I)
_LEVEL = r"(?P<level>provinsi|prov\.|kabupaten|kab\.|kota)"
# Words that cannot be part of a region: the number keyword, sentence words, another
# regulation's name ("Peraturan Bupati sebagaimana dimaksud dalam Peraturan Daerah …").
_NOT_REGION = (
    r"(?:nomor|nomer|no|nr|tahun|thn|th|tentang|ini|itu|tersebut|sebagaimana|dimaksud|"
    r"dalam|pada|yang|untuk|atas|dengan|oleh|sebagai|serta|atau|peraturan|keputusan|"
    r"instruksi|undang|qanun|republik|perubahan|pasal|ayat|huruf|angka|dan)"
)
_REGION_WORD = r"(?!" + _NOT_REGION + r"(?![\w-]))[^\W\d_][\w'-]*"
_INNER_WORD = r"(?:dan\s+)?" + _REGION_WORD
_REGIONAL_TAIL_RE = re.compile(
    r"(?:\s+" + _LEVEL + r")?"
    r"(?:\s+(?P<region>" + _REGION_WORD + r"(?:\s+" + _INNER_WORD + r"){0,5}?))?" + _NUMBER_TAIL,
    re.IGNORECASE,
)
_LEVEL_PREFIX_RE = re.compile(r"^(?:provinsi|prov\.|kabupaten|kab\.)\s+", re.IGNORECASE)
_CITY_PREFIX_RE = re.compile(r"^kota\s+", re.IGNORECASE)
_TITLE_RE = re.compile(r"\s*,?\s*tentang\s+(?P<title>[^.;:()\n]{2,300}?)\s*(?=[.;:()\n]|$)", re.I)


def canonical_jenis(text: str) -> Jenis | None:
    """The jenis a long name or abbreviation denotes (``"PP"``, ``"peraturan daerah"``)."""
    cleaned = " ".join(text.split())
    if cleaned.lower() in _MINISTRY_BY_ABBR:
        return _PERMEN
    for pattern, jenis in _BY_FORM:
        if pattern.match(cleaned):
            return jenis
    return None


_PERMEN = next(j for j in JENIS if j.abbr == "Permen")


def normalise_region(text: str | None) -> str | None:
    """``"Kabupaten Pinrang"`` → ``"Pinrang"``, ``"KOTA BANDA ACEH"`` → ``"Kota Banda Aceh"``."""
    if not text:
        return None
    value = " ".join(text.replace("_", " ").split()).strip(" ,.")
    value = _LEVEL_PREFIX_RE.sub("", value)
    city = bool(_CITY_PREFIX_RE.match(value))
    value = _CITY_PREFIX_RE.sub("", value)
    if not value:
        return None
    if value.isupper() or value.islower():
        value = " ".join(w if w.lower() == "dan" else w.capitalize() for w in value.split())
    return f"Kota {value}" if city else value


@dataclass(frozen=True, slots=True)
class RegulationRef:
    """A regulation as named somewhere; see the module docstring."""

    jenis: str | None
    nomor: str | None = None
    tahun: str | None = None
    region: str | None = None

    @property
    def abbr(self) -> str | None:
        if self.jenis is None:
            return None
        jenis = canonical_jenis(self.jenis)
        return jenis.abbr if jenis else self.jenis

    @property
    def short(self) -> str | None:
        """``PP 34/2021``, ``Qanun Aceh 7/2019``; None without a jenis and a nomor or tahun."""
        abbr = self.abbr
        if abbr is None or not (self.nomor or self.tahun):
            return None
        name = [abbr]
        if self.region:
            folded = _MINISTRY_BY_NAME.get(self.region.lower()) if abbr == "Permen" else None
            name = [folded] if folded else [abbr, self.region]
        if self.nomor and self.tahun:
            number = f"{self.nomor}/{self.tahun}"
        else:
            number = self.nomor or f"Tahun {self.tahun}"
        return " ".join([*name, number])

    @property
    def key(self) -> tuple[str, str, str, str]:
        """Case-folded (jenis, nomor, tahun, region) for matching two mentions."""
        return (
            (self.jenis or "").casefold(),
            (self.nomor or "").lstrip("0"),
            self.tahun or "",
            (self.region or "").casefold(),
        )


def _region_from(match: re.Match[str], jenis_text: str) -> tuple[bool, str | None]:
    """(is this a mention, its region) for a regional tail."""
    region = match.group("region")
    if not region:
        return True, None
    words = region.split()
    # Written with capitals ("Peraturan Gubernur Bali"): a region is capitalised too.
    if jenis_text[:1].isupper() and not all(w[:1].isupper() or w == "dan" for w in words):
        return False, None
    level = match.group("level")
    prefix = "Kota " if level and level.lower() == "kota" else ""
    return True, normalise_region(prefix + region)


def _mention_at(text: str, jenis_match: re.Match[str]) -> tuple[RegulationRef, int] | None:
    written = jenis_match.group(0)
    jenis = canonical_jenis(written)
    if jenis is None:
        return None
    ministry = _MINISTRY_BY_ABBR.get(written.lower())
    if jenis.regional and ministry is None:
        tail = _REGIONAL_TAIL_RE.match(text, jenis_match.end())
    else:
        tail = _NATIONAL_TAIL_RE.match(text, jenis_match.end())
    if tail is None:
        return None
    tahun = tail.group("tahun_slash") or tail.group("tahun_word") or tail.group("tahun_bare")
    if not (tail.group("keyword") or tahun):
        return None  # "PP 35" alone is too weak: "uu 2 orang"
    region: str | None = ministry
    if jenis.regional and ministry is None:
        ok, region = _region_from(tail, written)
        if not ok:
            return None
    ref = RegulationRef(jenis.name, str(int(tail.group("nomor"))), tahun, region)
    return ref, tail.end()


def find_regulations(text: str) -> list[tuple[RegulationRef, tuple[int, int]]]:
    """Every regulation mention with a nomor, in order, with its ``(start, end)`` span."""
    found: list[tuple[RegulationRef, tuple[int, int]]] = []
    pos = 0
    while (match := JENIS_RE.search(text, pos)) is not None:
        mention = _mention_at(text, match)
        if mention is None:
            # A longer name may hide a shorter one ("Peraturan Pemerintah sebagai
            # pelaksanaan Undang-Undang Nomor 11"): resume just after this start.
            pos = match.start() + 1
            continue
        ref, end = mention
        found.append((ref, (match.start(), end)))
        pos = end
    return found


def title_after(text: str, end: int) -> str | None:
    """The ``tentang …`` title right after a mention ending at ``end``, or None."""
    match = _TITLE_RE.match(text, end)
    if match is None:
        return None
    return " ".join(match.group("title").split()) or None


_NUMBER_YEAR_RE = re.compile(
    r"(?:\bnomor|\bno\.?)?\s*(?P<nomor>\d{1,4})\s*(?:/|\s+(?:tahun\s+)?)(?P<tahun>" + _YEAR + ")",
    re.IGNORECASE,
)
_FILE_EXTENSION_RE = re.compile(r"\.[A-Za-z][A-Za-z0-9]{1,4}$")


def _as_title(text: str) -> str:
    """A storage file name read as a title: no extension, ``_`` and ``-`` as spaces."""
    text = text.replace("_", " ").strip()
    if " " in text:
        return text
    return _FILE_EXTENSION_RE.sub("", text).replace("-", " ")


_LEADING_NOISE_RE = re.compile(r"^(?:salinan|draft|rancangan|lampiran)\s+", re.IGNORECASE)


def parse_regulation(text: str) -> RegulationRef | None:
    """The regulation a title names: its first mention, else a leading jenis + nomor/tahun.

    ``"pp_37_2021_jkp"``, ``"perda-no-12-2026.pdf"`` and ``"PP 37 2021 JKP"`` read like
    titles too.
    """
    cleaned = " ".join(_as_title(text).split())
    mentions = find_regulations(cleaned)
    if mentions:
        return mentions[0][0]
    cleaned = _LEADING_NOISE_RE.sub("", cleaned)
    head = JENIS_RE.match(cleaned)
    if head is None:
        return None
    jenis = canonical_jenis(head.group(0))
    if jenis is None:
        return None
    number = _NUMBER_YEAR_RE.search(cleaned, head.end())
    return RegulationRef(
        jenis.name,
        str(int(number.group("nomor"))) if number else None,
        number.group("tahun") if number else None,
    )


def _clean(value: object) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        return None
    value = " ".join(value.split())
    return value if value and value != "-" else None


def _jenis_and_region(jenis_text: str) -> tuple[str, str | None]:
    """``"Peraturan Daerah Kabupaten Pinrang"`` → ("Peraturan Daerah", "Pinrang")."""
    match = JENIS_RE.match(jenis_text)
    jenis = canonical_jenis(match.group(0)) if match else canonical_jenis(jenis_text)
    if jenis is None or match is None:
        return (jenis.name if jenis else jenis_text), None
    rest = jenis_text[match.end() :].strip()
    ministry = _MINISTRY_BY_ABBR.get(match.group(0).lower())
    region = ministry or (normalise_region(rest) if jenis.regional and rest else None)
    return jenis.name, region


def short_citation(
    jenis: str | None, nomor: object = None, tahun: object = None, region: str | None = None
) -> str | None:
    """A short citation from loose parts (``sourceMetadata``); None when too little is known."""
    return ref_from_parts(jenis, nomor, tahun, region).short


def ref_from_parts(jenis: object, nomor: object, tahun: object, region: object) -> RegulationRef:
    """Loose parts (``sourceMetadata``: strings, numbers, "-") as a regulation reference."""
    jenis_text = _clean(jenis)
    name: str | None = None
    inline_region: str | None = None
    if jenis_text:
        name, inline_region = _jenis_and_region(jenis_text)
    regional = name is not None and (found := canonical_jenis(name)) is not None and found.regional
    place = normalise_region(_clean(region)) if regional else None
    nomor_text = _clean(nomor)
    if nomor_text and nomor_text.isdigit():
        nomor_text = str(int(nomor_text))
    return RegulationRef(name, nomor_text, _clean(tahun), place or inline_region)
