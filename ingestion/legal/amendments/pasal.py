"""Split a regulation's body (not its Penjelasan) into its Pasal, in order.

A heading is ``Pasal 27A`` standing at the start of a line or after a sentence's end, not
followed by words that make it a reference ("Pasal 5 ayat (1)", "Pasal 5 dan …"). Numbers
only grow: a heading whose number is not after the previous one is a reference read out of
place (an OCR line break), and a jump of more than :data:`MAX_GAP` numbers is one too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingestion.legal.amendments.text import fix_numbers, strip_catchwords

MAX_GAP = 6
PASAL_HEADING_RE = re.compile(
    r"(?:^|(?<=\n)|(?<=[.;:”\"'“]\s)|(?<=[.;:”\"'“]))[ \t\"“']*"
    r"(?i:Pasal)\s+(?P<number>\d{1,4}\s?[A-Z]?)(?![\w(])"
    # References go on in lower case ("Pasal 5 ayat (1)", "Pasal 5 yang …"); a body starts
    # with a capital ("Yang dimaksud …", "Dalam hal …") or an ayat.
    r"(?![ \t]*(?:ayat|huruf|angka|dan\b|atau\b|sampai|s\.d|,|\)|tentang|ini\b|tersebut|"
    r"sebagaimana|yang\b|di\b|pada\b|dalam\b|berbunyi|diubah|dihapus|tetap))"
)
BAB_HEADING_RE = re.compile(
    r"(?:^|(?<=\n)|(?<=[.;:]\s))[ \t\"“']*BAB\s+(?P<number>[IVXLC]+\s?[A-Z]?)(?![\w])"
    r"(?!\s*(?:dan\b|,|ini\b|tentang))"
)
BAGIAN_HEADING_RE = re.compile(
    r"(?:^|(?<=\n))[ \t\"“']*Bagian\s+(?P<name>Ke[a-z]+|Pertama|KE[A-Z]+|PERTAMA)\b"
)
# "BAB VA JALAN KHUSUS Pasal 57A": a heading after a Bab's title on the same line.
_TITLE_THEN_PASAL_RE = re.compile(r"(\b[A-Z]{2,}[ \t]+)(?=Pasal\s+\d)")
_BODY_START_RE = re.compile(r"MEMUTUSKAN|Menetapkan\s*:", re.IGNORECASE)
_BODY_END_RE = re.compile(
    r"Agar\s+(?:supaya\s+)?setiap\s+orang\s+mengetahuinya|PENJELASAN\s+ATAS\b|"
    r"^\s*Penjelasan\s+atas\b",
    re.MULTILINE,
)
_PENJELASAN_RE = re.compile(
    r"PENJELASAN\s+ATAS\b|^\s*PENJELASAN\s*$|\bI\.\s*UMUM\b|\bII\.\s*PASAL\s+DEMI\s+PASAL\b",
    re.MULTILINE,
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
    match = _PENJELASAN_RE.search(text)
    return text[: match.start()] if match else text


def pasal_texts(text: str) -> list[PasalText]:
    """The Pasal of ``text`` in document order."""
    try:
        return split_pasal(body_of(strip_catchwords(text)))
    except (ValueError, IndexError, RecursionError):
        return []


def split_pasal(body: str, expected: frozenset[str] = frozenset()) -> list[PasalText]:
    """Split ``body`` at its Pasal headings (``expected`` numbers are always headings)."""
    body = _TITLE_THEN_PASAL_RE.sub("\\1\n", body)
    headings = _headings(body, expected)
    babs = [(m.start(), _clean_number(m.group("number"))) for m in BAB_HEADING_RE.finditer(body)]
    bagians = [(m.start(), m.group("name").capitalize()) for m in BAGIAN_HEADING_RE.finditer(body)]
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
    return fix_numbers(raw).replace(" ", "").upper()


def _headings(body: str, expected: frozenset[str]) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    last: tuple[int, str] | None = None
    for match in PASAL_HEADING_RE.finditer(body):
        number = _clean_number(match.group("number"))
        key = pasal_key(number)
        if number not in expected and not _follows(last, key):
            continue
        found.append((match.start(), match.end(), number))
        last = key
    return found


def _follows(last: tuple[int, str] | None, key: tuple[int, str]) -> bool:
    if last is None:
        return True
    return last < key and key[0] - last[0] <= MAX_GAP


def _strip_trailing_headings(chunk: str) -> str:
    """A Pasal ends before the BAB / Bagian / Paragraf heading that opens the next part."""
    lines = chunk.rstrip().split("\n")
    while len(lines) > 1 and re.match(
        r"\s*[\"“']?(?:BAB\s+[IVXLC]+|Bagian\s+(?:Ke\w+|Pertama)|Paragraf\s+\d+)\b", lines[-1]
    ):
        lines.pop()
    return "\n".join(lines)
