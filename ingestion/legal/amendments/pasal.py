"""Split a regulation's body (not its Penjelasan) into its Pasal, in order.

A heading is ``Pasal 27A`` standing at the start of a line or after a sentence's end, not
followed by words that make it a reference ("Pasal 5 ayat (1)", "Pasal 5 dan …"). Numbers
only grow: a heading whose number is not after the previous one is a reference read out of
place (an OCR line break), and a jump of more than :data:`MAX_GAP` numbers is one too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingestion.legal.amendments.text import clean, fix_numbers
from ingestion.legal.ocr_digits import pasal_number_as, printed_number

MAX_GAP = 6
# Each heading pattern opens with its literal word so the engine can skip ahead to it; what
# must stand before a heading (a line start, a sentence's end, a quote) is checked by
# :func:`_opens_line`.
PASAL_HEADING_RE = re.compile(
    r"(?i:Pasal)[ \t]*\n?[ \t]*(?P<number>\d{1,4}[ ]?[A-Z]?)(?![\w('’}])"
    # References go on in lower case ("Pasal 5 ayat (1)", "Pasal 5 yang …"); a body starts
    # with a capital ("Yang dimaksud …", "Dalam hal …") or an ayat.
    r"(?![ \t]*(?:ayat|huruf|angka|dan\b|atau\b|sampai|s\.d|,|\)|tentang|ini\b|tersebut|"
    r"sebagaimana|yang\b|di\b|pada\b|dalam\b|berbunyi|diubah|dihapus|tetap|dengan\b|"
    r"adalah\b|menjadi\b))"
)
# A heading whose number OCR damaged ("Pasal L6A", "Pasal 67,4'", "Pasal 5lE}"): taken only
# when it reads as a Pasal the instruction names (:func:`ocr_digits.pasal_number_as`).
DAMAGED_HEADING_RE = re.compile(
    r"(?i:Pasa\S{0,2})[ \t]*(?P<raw>[0-9LlI][0-9LlIO]{0,3}(?:,?4'|E[}l1\]]|[A-Z]|')?)"
    r"(?=[ \t]*[\n(A-Z])"
)
_PLAIN_NUMBER_RE = re.compile(r"\d{1,3}[A-Z]?")
BAB_HEADING_RE = re.compile(
    r"BAB\s+(?P<number>[IVXLC]+[ ]?[A-Z]?)(?![\w])(?!\s*(?:dan\b|,|ini\b|tentang))"
)
BAGIAN_HEADING_RE = re.compile(r"Bagian\s+(?P<name>Ke[a-z]+|Pertama|KE[A-Z]+|PERTAMA)\b")
# "… Anggaran Pasal 31 (1) Penyusunan …": a reference never goes on with "(1)", a heading does.
_FIRST_AYAT_RE = re.compile(r"[ \t]*\n?[ \t]*\(\s*1\s*\)")
_LINE_OPENING_RE = re.compile(r"(?:^|\n|[.;:”\"'“]\s?)[ \t\"“']*$")


def _opens_line(text: str, at: int) -> bool:
    """Does ``text[at:]`` start a line (or follow a sentence's end or a quote)?"""
    return bool(_LINE_OPENING_RE.search(text[max(0, at - 6) : at])) or (
        at < 6 and not text[:at].strip()
    )


# "BAB VA JALAN KHUSUS Pasal 57A": a heading after a Bab's title on the same line.
_TITLE_THEN_PASAL_RE = re.compile(r"(\b[A-Z]{2,}[ \t]+)(?=Pasal\s+\d)")
_BODY_START_RE = re.compile(r"MEMUTUSKAN|Menetapkan\s*:", re.IGNORECASE)
_BODY_END_RE = re.compile(
    r"Agar\s+(?:supaya\s+)?setiap\s+orang\s+mengetahuinya|PENJELASAN\s+ATAS\b|"
    r"^\s*Penjelasan\s+atas\b",
    re.MULTILINE,
)
_PENJELASAN_RES = (
    re.compile(r"PENJELASAN\s+ATAS\b"),
    re.compile(r"PENJELASAN[ \t]*$", re.MULTILINE),
    re.compile(r"I\.\s*UMUM\b"),
    re.compile(r"II\.\s*PASAL\s+DEMI\s+PASAL\b"),
)


@dataclass(frozen=True)
class PasalText:
    """One Pasal: its number (``"27A"``), the Bab it stands in, its body without heading."""

    number: str
    bab: str | None
    text: str
    bagian: str | None = None  # "Kedua": the Bagian of its Bab it stands in, if any


def pasal_key(number: str) -> tuple[int, str]:
    """Sort key of a Pasal number: ``"27A"`` → ``(27, "A")``; unreadable numbers sort last."""
    match = re.match(r"(\d+)\s*([A-Za-z]*)", number)
    if match is None:
        return (10**6, number)
    return (int(match.group(1)), match.group(2).upper())


def body_of(text: str) -> str:
    """The regulation's body: after MEMUTUSKAN, before the closing formula or Penjelasan."""
    start = _BODY_START_RE.search(text)
    begin = start.end() if start else 0
    end = _BODY_END_RE.search(text, begin)
    return text[begin : end.start() if end else len(text)]


def without_penjelasan(text: str) -> str:
    """``text`` up to its Penjelasan (the whole text when it has none)."""
    starts = [m.start() for r in _PENJELASAN_RES if (m := r.search(text))]
    return text[: min(starts)] if starts else text


def pasal_texts(text: str) -> list[PasalText]:
    """The Pasal of ``text`` in document order.

    A law that enacts a Perppu ("Penetapan Peraturan Pemerintah Pengganti Undang-Undang …
    menjadi Undang-Undang") has one or two Pasal of its own and the Perppu's whole body in
    its Lampiran, and amendments amend that body: of the bodies a text has (one after each
    MEMUTUSKAN), the one with the most Pasal is the regulation's.
    """
    try:
        cleaned = clean(text)
        starts = [m.start() for m in re.finditer(r"MEMUTUSKAN", cleaned)] or [0]
        bodies = [split_pasal(body_of(cleaned[start:])) for start in starts[:4]]
        return max(bodies, key=len)
    except (ValueError, IndexError, RecursionError):
        return []


def split_pasal(body: str, expected: frozenset[str] = frozenset()) -> list[PasalText]:
    """Split ``body`` at its Pasal headings (``expected`` numbers are always headings)."""
    body = _TITLE_THEN_PASAL_RE.sub("\\1\n", body)
    headings = _headings(body, expected)
    babs = [
        (m.start(), _clean_number(m.group("number")))
        for m in BAB_HEADING_RE.finditer(body)
        if _opens_line(body, m.start())
    ]
    bagians = [
        (m.start(), m.group("name").capitalize())
        for m in BAGIAN_HEADING_RE.finditer(body)
        if _opens_line(body, m.start())
    ]
    result: list[PasalText] = []
    for index, (start, end_of_heading, number) in enumerate(headings):
        stop = headings[index + 1][0] if index + 1 < len(headings) else len(body)
        chunk = _strip_trailing_headings(body[end_of_heading:stop])
        bab_at, bab = next(((at, name) for at, name in reversed(babs) if at < start), (-1, None))
        bagian = next((name for at, name in reversed(bagians) if bab_at < at < start), None)
        text = chunk.strip(" \t\n\"“”'")
        result.append(PasalText(number=number, bab=bab, text=text, bagian=bagian))
    return result


def _clean_number(raw: str) -> str:
    if raw.isdigit():
        return raw
    return fix_numbers(raw).replace(" ", "").upper()


def _headings(body: str, expected: frozenset[str]) -> list[tuple[int, int, str]]:
    """The headings that make the longest run of growing numbers (gaps ≤ :data:`MAX_GAP`).

    A reference that opens a line ("Pasal 15 ke 4 … Undang-undang Nomor 1 Tahun 1967" in a
    Mengingat read as body) is a candidate too; the longest run leaves it out. Numbers the
    caller expects weigh more than any run of others.
    """
    candidates: list[tuple[int, int, str, tuple[int, str]]] = []
    for match in PASAL_HEADING_RE.finditer(body):
        if _opens_line(body, match.start()) or _FIRST_AYAT_RE.match(body, match.end()):
            printed = _clean_number(match.group("number"))
            number = pasal_number_as(printed, expected) or printed
            candidates.append((match.start(), match.end(), number, pasal_key(number)))
    taken = {c[0] for c in candidates}
    for match in DAMAGED_HEADING_RE.finditer(body):
        raw = match.group("raw")
        # "Pasa] 50", "Pasa-l 62": the word damaged, the number as the instruction names it,
        # or as printed under an instruction that names none (a restated Bab).
        plain = raw in expected or (not expected and _PLAIN_NUMBER_RE.fullmatch(raw))
        damaged = raw if plain else pasal_number_as(raw, expected) or printed_number(raw)
        if damaged and match.start() not in taken and _opens_line(body, match.start()):
            candidates.append((match.start(), match.end(), damaged, pasal_key(damaged)))
    candidates.sort()
    # best[i] = (score of the best run ending at candidate i, previous index)
    best: list[tuple[int, int]] = []
    # Pasal number → {key: the best-scoring candidate with that key so far}; a later run can
    # extend any earlier candidate, so only the best of each key matters.
    ending: dict[int, dict[tuple[int, str], int]] = {}
    for index, (_start, _end, number, key) in enumerate(candidates):
        weight = 1000 if number in expected else 1
        score, previous = weight, -1
        for base in range(max(0, key[0] - MAX_GAP), key[0] + 1):
            for other_key, other in ending.get(base, {}).items():
                if other_key < key and best[other][0] + weight > score:
                    score, previous = best[other][0] + weight, other
        best.append((score, previous))
        same = ending.setdefault(key[0], {})
        if key not in same or best[same[key]][0] < score:
            same[key] = index
    if not best:
        return []
    at = max(range(len(best)), key=lambda i: best[i][0])
    chain: list[int] = []
    while at != -1:
        chain.append(at)
        at = best[at][1]
    return [candidates[i][:3] for i in reversed(chain)]


_PART_HEADING_RE = re.compile(
    r"\s*[\"“']?(?:BAB\s+[IVXLC]+|Bagian\s+(?:Ke\w+|Pertama)|Paragraf\s+\d+)\b"
)
# A heading's title, on its own line or wrapped onto the next ("Daerah", "Umum").
_TITLE_LINE_RE = re.compile(r"\s*[A-Z][^.;:]{0,150}")


def _strip_trailing_headings(chunk: str) -> str:
    """A Pasal ends before the BAB / Bagian / Paragraf headings that open the next part,
    their titles included, however the lines of heading and title were wrapped."""
    lines = chunk.rstrip().split("\n")
    cut = len(lines)
    for index in range(len(lines) - 1, 0, -1):
        if _PART_HEADING_RE.match(lines[index]):
            cut = index
        elif not _TITLE_LINE_RE.fullmatch(lines[index]):
            break
    return "\n".join(lines[:cut])
