"""Cleaning shared by the readers: page catchwords, OCR-damaged numbers, dates.

Official PDFs print the first words of the next page at the foot of each page ("Pasal 10…",
"(2) Bagi pegawai negeri..."); the converted text keeps them, so a heading would be read
twice. OCR turns digits into letters ("2OO4", "5l", "L2 Januari") and ")" into "1"
("ayat (21"); numbers in instructions, headings and dates are read through these.
"""

from __future__ import annotations

import re
from datetime import date

from ingestion.legal.ocr_digits import IN_TEXT, PASAL_WORD, printed_letters

_ELLIPSIS_RE = re.compile(r"\.\s?\.\s?\.|…")
_WORD_START_RE = re.compile(r"(?:^|(?<=\s))\S")
_CATCHWORD_SPAN = 100
# Digits OCR reads as letters, inside a token that has at least one real digit.
_OCR_DIGIT_RE = re.compile(r"(?<![\w-])(?=[0-9OolI|]*\d)[0-9OolI|]{2,4}(?![\w-])")
_PASAL_WORD_RE = re.compile(
    rf"\bPasa\s?-?\s?[l1iI]\b|\bPasai\b|\bPasal-\b|{PASAL_WORD}(?=\s+\d)", re.IGNORECASE
)
_UNCLOSED_RE = re.compile(r"\((\d{1,2}[a-z]?)1(?=[\s,.;]|$)")
_SPLIT_LETTER_RE = re.compile(r"\b(Pasal|Bab|BAB)\s+(\d+|[IVXLC]+)\s([A-Z])(?=[\s,.;:”\"]|$)")

MONTHS = {
    "januari": 1,
    "februari": 2,
    "pebruari": 2,
    "maret": 3,
    "april": 4,
    "mei": 5,
    "juni": 6,
    "juli": 7,
    "agustus": 8,
    "september": 9,
    "oktober": 10,
    "nopember": 11,
    "november": 11,
    "desember": 12,
}
# OCR's look-alike letters inside a month's name ("Januarl", "Jun1", "Mel", "Nopernber").
_OCR_LETTER = {"i": "[il1I|]", "l": "[li1I|]", "m": "(?:m|rn)", "o": "[o0]", "e": "[ec]"}


def _ocr_tolerant(word: str) -> str:
    return "".join(_OCR_LETTER.get(ch, re.escape(ch)) for ch in word)


_MONTH_FORMS = [
    (re.compile(_ocr_tolerant(name), re.IGNORECASE), number) for name, number in MONTHS.items()
]
_DATE_RE = re.compile(
    r"(?P<day>[0-9OolIL|]{1,2})\s+(?P<month>"
    + "|".join(_ocr_tolerant(name) for name in MONTHS)
    + r")\s+(?P<year>[0-9OolI|]{4})",
    re.IGNORECASE,
)


_PAGE_FURNITURE_RE = re.compile(
    r"^[ \t]*(?:-[ \t]*\d{1,4}[ \t]*-|PRESIDEN(?:[ \t]+REPUBLIK[ \t]+INDONESIA)?|"
    r"REPUBLIK[ \t]+INDONESIA)[ \t]*\n",
    re.MULTILINE,
)


def clean(text: str) -> str:
    """Page furniture of a printed regulation removed: catchwords, page numbers ("- 3 -"),
    and the running head ("PRESIDEN REPUBLIK INDONESIA") standing on its own line."""
    return strip_catchwords(_PAGE_FURNITURE_RE.sub("", text.replace("\r\n", "\n")))


def strip_catchwords(text: str) -> str:
    """Drop each page-foot catchword whose words open the text that follows it."""
    out: list[str] = []
    pos = 0
    for match in _ELLIPSIS_RE.finditer(text):
        if match.start() < pos:
            continue
        cut = _catchword_start(text, match)
        if cut is None:
            continue
        after = _skip_space(text, match.end())
        gap = text[cut:after]
        out.append(text[pos:cut].rstrip())
        out.append("\n" if "\n" in gap else " ")
        pos = after
    out.append(text[pos:])
    return "".join(out)


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _catchword_start(text: str, match: re.Match[str]) -> int | None:
    """Where the catchword before ``match`` starts, if the next page repeats it."""
    line_start = max(text.rfind("\n", 0, match.start()) + 1, match.start() - _CATCHWORD_SPAN)
    before = text[line_start : match.start()]
    after_at = _skip_space(text, match.end())
    after = text[after_at : after_at + _CATCHWORD_SPAN + 20]
    for word in _WORD_START_RE.finditer(before):
        candidate = before[word.start() :].rstrip()
        if len(candidate) >= 2 and after.startswith(candidate):
            return line_start + word.start()
    return None


def fix_numbers(text: str) -> str:
    """Read OCR-damaged numbers in an instruction's words ("2OO4", "(21", "Pasa-l 5l")."""
    text = printed_letters(_PASAL_WORD_RE.sub("Pasal", text))
    text = _OCR_DIGIT_RE.sub(lambda m: m.group(0).translate(IN_TEXT), text)
    text = _UNCLOSED_RE.sub(r"(\1)", text)
    return _SPLIT_LETTER_RE.sub(r"\1 \2\3", text)


def read_date(text: str) -> date | None:
    """The first Indonesian date in ``text`` ("2 Januari 2024", OCR "L2 Januari 2O22")."""
    match = _DATE_RE.search(text)
    if match is None:
        return None
    day = match.group("day").translate(IN_TEXT).replace("L", "1")
    year = match.group("year").translate(IN_TEXT)
    month = next(n for form, n in _MONTH_FORMS if form.fullmatch(match.group("month")))
    try:
        return date(int(year), month, int(day))
    except ValueError:
        return None


def normalise_space(text: str) -> str:
    """Whitespace folded to single spaces, for comparing two wordings."""
    return " ".join(text.split())
