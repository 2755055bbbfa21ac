"""Letters OCR invents, mended from the document's own words.

Indonesian is written in the 26 Latin letters, but a recogniser trained on many languages
sometimes reads a dotted or narrow letter as an accented one ("wajiüb", "wajüb" for
"wajib", in a scan that prints "wajib" two hundred times). A word with a letter outside
ASCII is replaced by the one word of the same document that differs from it in that
letter alone (the letter dropped, or read as another), when that word occurs at least
``MIN_OCCURRENCES`` times. A name really spelt with an umlaut has no such twin and stays.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence

from ingestion.pipeline.base import Block

MIN_OCCURRENCES = 3
_WORD_RE = re.compile(r"[^\W\d_]+")
_FOREIGN_RE = re.compile(r"[^\x00-\x7f]")


def mend_foreign_letters(blocks: Sequence[Block], vocabulary_from: Sequence[Block]) -> int:
    """Mend ``blocks`` in place against the words of ``vocabulary_from``; returns how many
    words changed."""
    counts = Counter(w.lower() for b in vocabulary_from for w in _WORD_RE.findall(b.text))
    changed = 0
    for block in blocks:
        if _FOREIGN_RE.search(block.text):
            block.text, mended = _mend(block.text, counts)
            changed += mended
    return changed


def _mend(text: str, counts: Counter[str]) -> tuple[str, int]:
    mended = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal mended
        word = match.group()
        twin = _twin(word, counts) if _FOREIGN_RE.search(word) else None
        mended += twin is not None
        return twin or word

    return _WORD_RE.sub(replace, text), mended


def _twin(word: str, counts: Counter[str]) -> str | None:
    lower = word.lower()
    at = _FOREIGN_RE.search(lower)
    if at is None:
        return None
    i = at.start()
    candidates = [lower[:i] + lower[i + 1 :]] + [
        lower[:i] + letter + lower[i + 1 :] for letter in string.ascii_lowercase
    ]
    best = max(candidates, key=lambda c: counts[c])
    if counts[best] < MIN_OCCURRENCES or _FOREIGN_RE.search(best):
        return None
    return _cased_as(word, best)


def _cased_as(word: str, twin: str) -> str:
    if len(word) > 1 and word.isupper():
        return twin.upper()
    return twin.capitalize() if word[0].isupper() else twin
