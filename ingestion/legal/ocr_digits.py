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

IN_TEXT = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "|": "1"})

AFTER_KEYWORD_LETTERS = "OoQDIl|!iLSsZzBGbgq"
AFTER_KEYWORD = str.maketrans(AFTER_KEYWORD_LETTERS, "0000111111552286699")
# A character class of what may stand for a digit after the keyword.
AFTER_KEYWORD_CLASS = f"[0-9{AFTER_KEYWORD_LETTERS}]"

# "Pasal" as scans print it: its l read as 1, i, I, "]" or "|", or split off ("Pasa-l").
# Only ever taken before a Pasal number, so a word such as "Pasai" (Samudera Pasai) is not.
PASAL_WORD = r"\bPasa(?:l|\s?-\s?[l1iI]|[1iI\]|])"
