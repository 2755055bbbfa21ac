"""Digits as OCR misreads them: the one home of the letter → digit tables (and of the word
"Pasal" as OCR prints it, whose l is a digit-like stroke too).

Scans turn digits into look-alike letters ("2OO8", "NOMOR I1", "5l"). How many look-alikes
may be read back as digits depends on how sure we are that a number stands there:

- in running text (instruction numbers, dates, "ayat (21"), only the commonest confusions,
  inside a token that already has a real digit, so words are never turned into numbers;
- right after the keyword NOMOR or TAHUN of a heading a number is certain, so every
  look-alike counts (Q, D, S, Z, B, G … included).
"""

from __future__ import annotations

import re

IN_TEXT = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "|": "1"})

AFTER_KEYWORD_LETTERS = "OoQDIl|!iLSsZzBGbgq"
AFTER_KEYWORD = str.maketrans(AFTER_KEYWORD_LETTERS, "0000111111552286699")
# A character class of what may stand for a digit after the keyword.
AFTER_KEYWORD_CLASS = f"[0-9{AFTER_KEYWORD_LETTERS}]"

# "Pasal" as scans print it: its l read as 1, i, I, "]" or "|", or split off ("Pasa-l").
# Only ever taken before a Pasal number, so a word such as "Pasai" (Samudera Pasai) is not.
PASAL_WORD = r"\bPasa(?:l|\s?-\s?[l1iI]|[1iI\]|])"

# A Pasal number's letter as scans print it: "27B" read "278", "67A" read "67,4'" or "674'",
# "51B" read "5lE}".
_LETTER_FORMS = (("A", ("4'", ",4'", ",4", "4")), ("B", ("E}", "El", "E1", "E]", "8")))
_NOISE = str.maketrans("", "", "'’,}]")
_DIGIT_LIKE = str.maketrans({"L": "1", "l": "1", "I": "1", "|": "1", "i": "1", "O": "0", "o": "0"})

# The forms above that cannot be a digit ("5lE}", "9,4'"), read as their letter wherever a
# Pasal number is printed, instruction sentences included.
_PRINTED_LETTER_RE = re.compile(
    r"(?<=Pasal )(?P<digits>\d[\dlI]*)(?:(?P<a>,?4')|(?P<b>E[}l\]]))(?![\w'])"
)


def printed_letters(text: str) -> str:
    """ "Pasal 5lE}" → "Pasal 51B", "Pasal 9,4'" → "Pasal 9A"."""
    return _PRINTED_LETTER_RE.sub(
        lambda m: m.group("digits").translate(_DIGIT_LIKE) + ("A" if m.group("a") else "B"), text
    )


def printed_number(raw: str) -> str | None:
    """A heading number with a letter form no digit has ("614'", "61E}"): 61A, 61B."""
    read = printed_letters(f"Pasal {raw}")[6:]
    return read if read != raw else None


def readings(raw: str) -> set[str]:
    """The Pasal numbers a printed number may stand for, its own reading first among them."""
    raw = raw.replace(" ", "")
    found = {raw.translate(_NOISE).translate(_DIGIT_LIKE)}
    for letter, forms in _LETTER_FORMS:
        for form in forms:
            if raw.endswith(form) and len(raw) > len(form):
                found.add(raw[: -len(form)].translate(_DIGIT_LIKE) + letter)
    return found


def unclosed_ayat(printed: str, expected: int | None) -> str:
    """An ayat number whose closing parenthesis OCR read as a 1 ("(21 Upah …" for "(2) Upah
    …"): the expected number when the printed one is it and a 1, else the printed one."""
    return str(expected) if expected is not None and printed == f"{expected}1" else printed


def pasal_number_as(raw: str, named: frozenset[str]) -> str | None:
    """The one Pasal of ``named`` (the Pasal an amending instruction names) that a printed
    heading number stands for: "278" under "disisipkan Pasal 27A dan Pasal 27B" is 27B,
    "L6A" is 16A. None when the number is one of them as printed, or none or several fit."""
    if not named or raw in named:
        return None
    fits = readings(raw) & named
    return next(iter(fits)) if len(fits) == 1 else None
