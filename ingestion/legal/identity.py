"""Which regulation a document is: the one home of a document's identity.

A regulation says who it is in its own heading ("UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 11
TAHUN 2008 TENTANG …"), whatever its file is called. Everything that needs to know which
regulation a document is reads it here: the short citation stored on the document
(``Document.citation``), the title search labels (``Document.title_labels``), the
regulation key the relation graph links on (``Document.regulation_key`` / ``_region``) and
the document list's Nomor / Tahun.

Pure Python. The readings, strongest first, part by part:

1. ``sourceMetadata`` (``jenis``, ``nomor``, ``tahun``/``year``, ``wilayah``/``region``);
2. the printed heading: the opening text up to the preamble (*Menimbang*, *Mengingat:*,
   *DENGAN RAHMAT TUHAN*, an abstract's *ABSTRAK*), or its first :data:`HEADING_WINDOW`
   characters when there is none;
3. the stored title, often a file name (``uu_11_2008.pdf``, ``arsip.txt``).

A complete reading (jenis, nomor and tahun) wins over a partial one; a partial one is
filled from the others only where they agree.

The heading is read through OCR damage (:func:`read_heading`): letters that scans confuse
(I/l/1, O/0, U/V, M/"IVI"/"rn", H/"II" …), stray dots and commas inside words
("INDONESI.A", "UNDANG.UNDANG"), numbers misread as letters after NOMOR and TAHUN ("NOMOR
I1", "2OO8") and words run together ("NOMOR 2TAHVN 2022"). Only the words of a heading are
repaired (the jenis names of :data:`ingestion.legal.citation.JENIS` and the heading's own
words), so running text is never changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from ingestion.labels import labels_for
from ingestion.legal.citation import (
    JENIS,
    RegulationRef,
    canonical_jenis,
    find_regulations,
    parse_regulation,
    ref_from_parts,
)
from ingestion.legal.ocr_digits import AFTER_KEYWORD, AFTER_KEYWORD_CLASS
from ingestion.legal.units import path_top

HEADING_WINDOW = 400  # a regulation without a preamble names itself in its first lines
OPENING_CHARS = 1500  # how much of the opening is read for its heading at most

# --- OCR repair of a heading -------------------------------------------------------------

# What a scanned letter may come out as (lower case; matched case-insensitively).
_LOOKALIKES: dict[str, str] = {
    "a": "[a4@]",
    "b": "[b8]",
    "d": "(?:d|cl)",
    "g": "[g6]",
    "h": "(?:h|ii|i-i|li)",
    "i": "[il1|!í]",
    "k": "(?:k|lc|ic|l<|i<|i\\{)",
    "l": "[li1|]",
    "m": "(?:m|rn|nn|[il1|]v[il1|]|iyi)",
    "n": "(?:n|i\\{|iv)",
    "o": "(?:[o0q]|\\(\\))",
    "s": "[s5$]",
    "t": "[t7]",
    "u": "(?:u|v|li|ii|ij)",
    "w": "(?:w|vv)",
    "y": "[yv]",
}
_INSIDE = "[.,'’`]{0,2}"  # a stray mark inside a word: "INDONESI.A", "JAI.,AN"
# Long words may also be split by a space ("PERA TURAN", "SALIN AN"); short ones could then
# be made of two real words.
_INSIDE_LONG = "[.,'’` ]{0,2}"
_LONG_WORD = 6
_BETWEEN = "[\\s.,_\\-–]*"  # between the words of a name: "UNDANG.UNDANG", "WALIKOTA"

# The words a heading is made of, besides the jenis names.
_HEADING_WORDS = (
    "Republik Indonesia",
    "Nomor",
    "Tahun",
    "Tentang",
    "Provinsi",
    "Kabupaten",
    "Perubahan",
    "Pencabutan",
    "Atas",
    "Salinan",
    "Dengan Rahmat Tuhan",
    "Menimbang",
    "Mengingat",
    "Membaca",
    "Menetapkan",
    "Abstrak",
)


def _word_pattern(word: str) -> str:
    letters = [_LOOKALIKES.get(ch, re.escape(ch)) for ch in word.lower()]
    return (_INSIDE_LONG if len(word) >= _LONG_WORD else _INSIDE).join(letters)


def _phrase_pattern(phrase: str) -> str:
    return _BETWEEN.join(_word_pattern(w) for w in re.split(r"[\s-]+", phrase))


def _vocabulary() -> tuple[str, ...]:
    names = [j.name for j in JENIS]
    return tuple(sorted({*names, *_HEADING_WORDS}, key=len, reverse=True))


_VOCABULARY = _vocabulary()
# Not inside a longer word; a digit may touch it ("2TAHVN": the number ran into the word).
_WORD_RE = re.compile(
    "(?<![^\\W\\d_])(?:"
    + "|".join(
        f"(?P<w{i}>{_phrase_pattern(word)})(?![^\\W\\d_])" for i, word in enumerate(_VOCABULARY)
    )
    + ")",
    re.IGNORECASE,
)


def _canonical_word(match: re.Match[str]) -> str:
    word = _VOCABULARY[int((match.lastgroup or "w0")[1:])]
    written = match.group(0)
    letters = [ch for ch in written if ch.isalpha()]
    upper = sum(ch.isupper() for ch in letters)
    canonical = word.upper() if upper * 2 > len(letters) else word  # "PEMERlNTAH" is capitals
    if written.lower() == canonical.lower():
        return written  # already right: keep the printed form
    return f" {canonical} "


# Digits as OCR reads them inside a number.
_NUMBERISH = AFTER_KEYWORD_CLASS
_NOMOR_RE = re.compile(
    r"(?P<keyword>\b(?:nomor|no)(?![^\W\d_])\.?\s*:?\s*)"
    rf"(?P<number>{_NUMBERISH}{{1,4}})(?P<gap>[\s.,'`’]*)(?=\s|[,./:;)'`’]|$|tahun)",
    re.IGNORECASE,
)
_TAHUN_RE = re.compile(
    rf"(?P<keyword>(?:\btahun|/)\s*:?\s*)(?P<year>{_NUMBERISH}{{4}})(?![0-9A-Za-z])",
    re.IGNORECASE,
)
_YEAR_RE = re.compile(r"^(?:19|20)\d{2}$")


def _nomor(match: re.Match[str]) -> str:
    written = match.group("number")
    number = written.translate(AFTER_KEYWORD)
    tahun = match.string[match.end() : match.end() + 5].lower() == "tahun"
    # Letters alone are a number only where a TAHUN follows ("NOMOR I TAHUN 2008").
    if not number.isdigit() or not (tahun or any(ch.isdigit() for ch in written)):
        return match.group(0)
    keyword = match.group("keyword").strip(" \t\n.:")
    keyword += "." if keyword.lower() == "no" else ""
    # Stray marks between the number and its TAHUN ("NOMOR 10 . TAHUN") go.
    gap = " " if tahun else match.group("gap") or " "
    return f"{keyword} {number}{gap}"


def _tahun(match: re.Match[str]) -> str:
    year = match.group("year").translate(AFTER_KEYWORD)
    if not _YEAR_RE.match(year):
        return match.group(0)
    return f"{match.group('keyword')}{year}"


def read_heading(text: str) -> str:
    """The heading with its OCR damage repaired (lines kept, blanks collapsed)."""
    repaired = _WORD_RE.sub(_canonical_word, text)
    repaired = _NOMOR_RE.sub(_nomor, repaired)
    repaired = _TAHUN_RE.sub(_tahun, repaired)
    lines = (" ".join(line.split()) for line in repaired.splitlines())
    return "\n".join(line for line in lines if line)


# --- the heading ------------------------------------------------------------------------

# Where the heading ends, in the repaired text. "Membaca"/"Mengingat" are common verbs: only
# with their colon; ABSTRAK only in capitals, as JDIH prints it.
_HEADING_END_RE = re.compile(
    r"\bDENGAN\s+RAHMAT\s+TUHAN\b|\bMenimbang\b|\bMembaca\s*:|\bMengingat\s*:|(?-i:\bABSTRAK\b)",
    re.IGNORECASE,
)
_PASAL_PATH_RE = re.compile(r"(?:^|›)\s*Pasal\s+\w+\s*(?:›|$)")


@dataclass(frozen=True, slots=True)
class Heading:
    """A document's heading as read; ``ended`` when a preamble (or ABSTRAK) closed it."""

    text: str
    ended: bool


def opening_of(sections: Iterable[tuple[str, str]]) -> str:
    """The opening text of a chunked document: its ``(heading path, text)`` sections before
    the first Pasal, the elucidation or an annex (at most :data:`OPENING_CHARS`)."""
    pieces: list[str] = []
    size = 0
    for path, text in sections:
        if _PASAL_PATH_RE.search(path) or path_top(path):
            break
        pieces.append(text)
        size += len(text) + 1
        if size >= OPENING_CHARS:
            break
    return "\n".join(pieces)[:OPENING_CHARS]


_WORDY_RE = re.compile(r"[^\W\d_]{4,}")


def heading_of(opening: str) -> Heading:
    """The heading above the preamble, repaired; without a preamble, the first lines.

    A conversion may put the preamble's labels first ("Menimbang Mengingat : Menetapkan
    PERATURAN …"): a stretch without words before a marker is skipped.
    """
    text = read_heading(opening[:OPENING_CHARS])
    start = 0
    for end in _HEADING_END_RE.finditer(text):
        stretch = text[start : end.start()].strip()
        if _WORDY_RE.search(stretch):
            return Heading(stretch, True)
        start = end.end()
    return Heading(text[start : start + HEADING_WINDOW].strip(), False)


_TENTANG_RE = re.compile(r"\btentang\b", re.IGNORECASE)
# Lines a heading carries that are not its title: the stamp, the seal's caption.
_NOT_TITLE_LINE_RE = re.compile(r"^(?:SALINAN|PRESIDEN|REPUBLIK INDONESIA|LAMPIRAN)\W*$", re.I)
_TITLE_START_RE = re.compile(
    r"^(?:UNDANG|PERATURAN|QANUN|KEPUTUSAN|INSTRUKSI|PENETAPAN|KEPUTUSAN|SURAT\s+EDARAN)", re.I
)
TITLE_MAX_CHARS = 400
_REPEATED_OPENING_RE = re.compile(r"^(?P<words>\S.{8,60}?) (?P=words) ")


def heading_title(opening: str) -> str | None:
    """The title a regulation prints above its preamble ("UNDANG-UNDANG REPUBLIK INDONESIA
    NOMOR 11 TAHUN 2008 TENTANG INFORMASI DAN TRANSAKSI ELEKTRONIK"), on one line; None
    when the opening has no such heading."""
    heading = heading_of(opening)
    if not heading.ended:
        return None
    lines = [line for line in heading.text.splitlines() if not _NOT_TITLE_LINE_RE.match(line)]
    start = next((i for i, line in enumerate(lines) if _TITLE_START_RE.match(line)), None)
    if start is None:
        return None
    title = " ".join(" ".join(lines[start:]).split())
    title = _REPEATED_OPENING_RE.sub(r"\g<words> ", title)  # a conversion's doubled first line
    if not _TENTANG_RE.search(title) or len(title) > TITLE_MAX_CHARS:
        return None
    return title


# A name is a heading line: what follows it is its subject, a line end, or the abstract's
# ", LD 2025/NO.8".
_NAME_END_RE = re.compile(r"[ \t.…'’`\"]*(?:$|\n|,|tentang\b)", re.IGNORECASE)
# A mention after one of these words is part of a sentence, not the document's name.
_SENTENCE_WORD_RE = re.compile(
    r"\b(?:berdasarkan|dalam|dengan|sesuai|menurut|atas|pada|dan|serta|oleh|terhadap|"
    r"mengenai|melaksanakan|pelaksanaan|perubahan|pencabutan|yaitu|yakni)\W*$"
    # … or an item of a list ("2. Undang-Undang Nomor 13 …" of a Mengingat).
    r"|(?:^|\s)(?:\d{1,3}|(?-i:[a-z]))[.)]\s*$",
    re.IGNORECASE,
)
_YEAR_ALONE_RE = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")


def _is_name(heading: str, start: int, end: int) -> bool:
    before = heading[:start]
    name = heading[start:end]
    # The heading may be printed twice over ("PERATURAN PEMERINTAH NOMOR 36 TAHUN 1948
    # PERATURAN PEMERINTAH NOMOR 36 TAHUN 1948 MILITAIRISASI").
    doubled = heading[end:].lstrip().lower().startswith(name.lower())
    if _SENTENCE_WORD_RE.search(before) or not (doubled or _NAME_END_RE.match(heading, end)):
        return False
    written_jenis = name.split()[0]
    # Printed in capitals, or only capitalised header lines above it ("SALINAN", "PRESIDEN
    # REPUBLIK INDONESIA"); "Berdasarkan Peraturan Bupati …" is a sentence.
    words = re.findall(r"[^\W\d_]+", before)
    return written_jenis.isupper() or all(w.isupper() for w in words)


def _plausible(ref: RegulationRef) -> RegulationRef:
    """A tahun after next year is a misread ("TAHUN 2078"): unknown, not guessed."""
    if ref.tahun and int(ref.tahun) > date.today().year + 1:
        return RegulationRef(ref.jenis, ref.nomor, None, ref.region)
    return ref


def heading_ref(opening: str) -> RegulationRef | None:
    """The regulation a document's own heading names, or None."""
    heading = heading_of(opening).text
    subject = _TENTANG_RE.search(heading)
    limit = subject.start() if subject else len(heading)
    for ref, (start, end) in find_regulations(heading):
        if start >= limit:
            break
        if _is_name(heading, start, end):
            ref = _plausible(ref)
            if ref.tahun is None:
                ref = _with_printed_year(ref, heading[:limit], (start, end))
            return ref
    return None


def _with_printed_year(ref: RegulationRef, head: str, span: tuple[int, int]) -> RegulationRef:
    """An abstract prints the year apart ("2025 / PERDA NO.8, LD 2025/NO.8"): the year that
    stands alone in the heading's name lines is the regulation's."""
    outside = head[: span[0]] + " " + head[span[1] :]
    years = set(_YEAR_ALONE_RE.findall(outside))
    if len(years) != 1:
        return ref
    return RegulationRef(ref.jenis, ref.nomor, years.pop(), ref.region)


# --- the identity ------------------------------------------------------------------------


def is_identified(ref: RegulationRef | None) -> bool:
    """Jenis, nomor and tahun are known: enough to link the regulation in the graph."""
    return ref is not None and bool(ref.jenis and ref.nomor and ref.tahun)


def _agree(a: RegulationRef, b: RegulationRef) -> bool:
    if canonical_jenis(a.jenis or "") != canonical_jenis(b.jenis or ""):
        return False
    pairs = ((a.nomor, b.nomor), (a.tahun, b.tahun), (a.region, b.region))
    return all(x is None or y is None or x.casefold() == y.casefold() for x, y in pairs)


def _fullest(readings: list[RegulationRef]) -> RegulationRef | None:
    """The first complete reading (else the first), filled from readings that agree."""
    if not readings:
        return None
    base = next((r for r in readings if is_identified(r)), readings[0])
    for other in readings:
        if other is not base and _agree(base, other):
            base = RegulationRef(
                base.jenis,
                base.nomor or other.nomor,
                base.tahun or other.tahun,
                base.region or other.region,
            )
    return base


def _metadata_ref(source_metadata: Mapping[str, object]) -> RegulationRef:
    return ref_from_parts(
        source_metadata.get("jenis"),
        source_metadata.get("nomor"),
        source_metadata.get("tahun") or source_metadata.get("year"),
        source_metadata.get("wilayah") or source_metadata.get("region"),
    )


def document_identity(
    title: str, source_metadata: Mapping[str, object], opening: str | None = None
) -> RegulationRef | None:
    """A document's regulation: sourceMetadata part by part, over its printed heading,
    over its title; None when nothing names one."""
    readings = [heading_ref(opening) if opening else None, _title_ref(title)]
    printed = _fullest([r for r in readings if r is not None]) or RegulationRef(None)
    meta = _metadata_ref(source_metadata)
    same_jenis = meta.jenis is None or meta.jenis == printed.jenis
    ref = RegulationRef(
        meta.jenis or printed.jenis,
        meta.nomor or printed.nomor,
        meta.tahun or printed.tahun,
        # A region belongs to its jenis: "Aceh" of a Qanun is not the region of a Pergub.
        meta.region or (printed.region if same_jenis else None),
    )
    return ref if any((ref.jenis, ref.nomor, ref.tahun)) else None


def _title_ref(title: str) -> RegulationRef | None:
    """The regulation a title names as itself: the part before "tentang" when that part
    names one ("… NOMOR 1 TAHUN 2013 TENTANG PERUBAHAN ATAS … NOMOR 3 TAHUN 2012" is 1/2013),
    else whatever the title names."""
    own = _TENTANG_RE.split(title, maxsplit=1)[0]
    ref = parse_regulation(own) if own != title else None
    return ref if ref is not None and ref.nomor and ref.tahun else parse_regulation(title)


def document_citation(
    title: str, source_metadata: Mapping[str, object], opening: str | None = None
) -> str:
    """The short citation stored on a document ("" when unknown)."""
    ref = document_identity(title, source_metadata, opening)
    return (ref.short if ref else None) or ""


def title_labels(
    title: str, source_metadata: Mapping[str, object], opening: str | None = None
) -> str:
    """The title search labels of a document (see :mod:`ingestion.labels`)."""
    return labels_for(title, document_identity(title, source_metadata, opening), source_metadata)


def listed_identity(citation: str, source_metadata: Mapping[str, object]) -> RegulationRef | None:
    """What the document list shows: sourceMetadata over the stored short citation."""
    return document_identity(citation, source_metadata)
