"""A calibrated confidence for one OCR line: the probability that the line reads correctly.

Why not the engine's own score: RapidOCR's (and PaddleOCR's) per-line score is the mean of
the per-character softmax maxima. It saturates near 1.0 even for lines it misreads, so it
barely separates right from wrong (AUROC ~0.57 on our benchmark). ``needs_review`` depends
on this number, so we derive it from signals that do separate them:

- ``lexical``: how much of the line (by characters) is made of things a legal text is made
  of: Indonesian words (the Sastrawi root-word dictionary, after stemming, plus compound
  splits and a small legal/Aceh lexicon), numbers, roman numerals, list markers such as
  ``(1)`` and ``a.``, and known abbreviations. OCR garbage is mostly none of these.
- ``odd_chars``: the share of characters outside the alphabet of typed Indonesian text.
- ``noisy_tokens``: tokens with case or digit noise inside a word (``pEmerintah``, ``Pa5al``).
- ``fragments``: unknown one- or two-letter tokens, the debris of a line that fell apart.
- ``unknown_words``: how many tokens (up to five) are not known: each is likely a misread
  character, and a handful of them is a CER of several percent on a typical line.
- ``raw_doubt``: the engine score, useful only at its low end, so it can only lower the
  confidence.
- ``length_mismatch``: when the text-box geometry is known, how far the number of
  characters read is from the number the box can hold (dropped or invented characters).
- ``missed_ink``: when the page image is known, the share of the ink on the line's row
  that no detected box covers: the part of a line the detector never saw.

The signals are combined by a logistic function whose weights were fitted once on the
tuning half of ``bench/ocr.py`` (``bench/ocr_fit.py``) and frozen here: the function is
small, deterministic and has no state.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import astuple, dataclass
from functools import cache, lru_cache
from pathlib import Path

# Weights of the logistic model, fitted by bench/ocr_fit.py on the tuning split.
# Order: bias, lexical, odd_chars, noisy_tokens, fragments, raw_doubt, length_mismatch,
# short_line, missed_ink, unknown_words.
WEIGHTS: tuple[float, ...] = (-1.96, 5.80, -0.14, -0.64, -0.42, -0.95, -0.28, -1.15, -2.10, -3.55)

# Typed text is about this many characters per unit of box aspect (width / height) for the
# boxes the PP-OCR detector draws; measured on clean renders by bench/ocr_fit.py.
CHARS_PER_ASPECT = 1.88

_NUMBER = re.compile(r"^\d+([.,/-]\d+)*[.,]?$")
_MARKER = re.compile(r"^\(?(\d{1,3}|[a-z]{1,2})[.)]$")
_ROMAN = re.compile(r"^(?=[MDCLXVI])M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")
_ACRONYM = re.compile(r"^[A-Z]{2,6}[0-9]?[A-Z]{0,3}$")
_LEAD = "([{\"'“‘«"
_TRAIL = ")]}\"'”’».,;:!?"
# Characters that occur in typed Indonesian legal text; anything else is OCR debris.
_PLAIN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:()/-\"'%“”‘’&+=§")
_LOWER_THEN_UPPER = re.compile(r"[a-z][A-Z]")
_DIGIT_IN_WORD = re.compile(r"[A-Za-z]\d|\d[A-Za-z]")

# Words a legal text from Aceh uses that the root dictionary lacks (names, loan words,
# abbreviations). Lower case; abbreviations without their dot.
_LEXICON_EXTRA = frozenset(
    """
    aceh qanun wali nanggroe mukim gampong keuchik reusam meunasah syariat syar'iyah
    mahkamah baitul mal wilayatul hisbah banda sabang lhokseumawe langsa subulussalam
    pidie bireuen jaya gayo lues tengah tamiang simeulue singkil nagan raya meulaboh
    kabupaten kota provinsi republik indonesia nkri dpr dpra dprk dprd mpr bpk bpjs apbn
    apbd apba apbk uu pp perpres permen perda pergub perbup perwal kepmen inpres
    jo yth dll dsb dst dkk tsb no nomor hlm ttd rp kab kec prov ri sk
    pns asn tni polri bumn bumd bumg nik nip ktp npwp opd skpa skpk kpk ojk bi bpkp
    pasal ayat huruf angka bab bagian paragraf penjelasan lampiran cukup jelas di ke ia ya
    """.split()
)
# Dictionary entries that legal text never uses but OCR debris often spells.
_LEXICON_DROP = frozenset({"es", "mi", "mu", "om"})
_DICT_PATH = ("Stemmer", "data", "kata-dasar.txt")


@dataclass(frozen=True, slots=True)
class LineSignals:
    """The measured signals of one line, each in 0..1."""

    lexical: float
    odd_chars: float
    noisy_tokens: float
    fragments: float
    raw_doubt: float
    length_mismatch: float
    short_line: float
    missed_ink: float
    unknown_words: float

    def as_vector(self) -> tuple[float, ...]:
        return (1.0, *astuple(self))


@cache
def _root_words() -> frozenset[str]:
    # Imported here: the stemmer's dictionary is large; loaded on first use only.
    import Sastrawi

    path = Path(Sastrawi.__file__).parent.joinpath(*_DICT_PATH)
    words = path.read_text(encoding="utf-8").split()
    roots = frozenset(w.strip().lower() for w in words if w.strip()) - _LEXICON_DROP
    return roots | _LEXICON_EXTRA


@cache
def _stemmer() -> object:
    # Imported here: the stemmer's dictionary is large; loaded on first use only.
    from Sastrawi.Stemmer.StemmerFactory import StemmerFactory

    # The factory wraps the stemmer in a cache that keeps every word it ever stemmed, without
    # bound: a worker reading scans for months would grow with every OCR misreading. The
    # bounded cache of is_indonesian_word already saves the repeated work.
    return StemmerFactory().create_stemmer().delegatedStemmer


def _stem(word: str) -> str:
    stem: str = _stemmer().stem(word)  # type: ignore[attr-defined]
    return stem


@lru_cache(maxsize=65536)
def is_indonesian_word(word: str) -> bool:
    """True for a lower-case word whose root (or both halves of a compound) is known."""
    roots = _root_words()
    if word in roots:
        return True
    if len(word) < 3 or not word.isalpha():
        return False
    stem = _stem(word)
    if stem in roots:
        return True
    # Sastrawi leaves circumfixed compounds alone (ke-tenaga-kerja-an); strip and split.
    return any(
        c[:i] in roots and c[i:] in roots
        for c in _compound_cores(stem)
        for i in range(3, len(c) - 2)
    )


# Nasal prefixes swallow the root's first consonant: men+tanda -> menanda, mem+pakai -> memakai.
_ME_NASAL = (("meny", "s"), ("meng", "k"), ("men", "t"), ("mem", "p"))
_NASAL: tuple[tuple[str, str], ...] = _ME_NASAL + tuple(("pe" + p[2:], r) for p, r in _ME_NASAL)


def _compound_cores(stem: str) -> set[str]:
    bases = {re.sub(r"^(ke|per|pe[nmr]?|pen[gy]?|se|di|me[nm]?|meng)", "", stem)}
    bases |= {root + stem[len(prefix) :] for prefix, root in _NASAL if stem.startswith(prefix)}
    # The suffix may belong to the second root (tanda-tangan-i), so try with and without.
    return bases | {re.sub(r"(an|kan|nya|i)$", "", b) for b in bases}


@lru_cache(maxsize=65536)
def _is_run_together(word: str) -> bool:
    """Two words the engine ran together ("sampaidengan"): a root word plus a known word."""
    roots = _root_words()
    return len(word) >= 7 and any(
        word[:i] in roots and is_indonesian_word(word[i:]) for i in range(2, len(word) - 2)
    )


def _word_known(word: str) -> bool:
    return is_indonesian_word(word) or _is_run_together(word)


_PART_SEPARATOR = re.compile(r"[-/]")


# Cached: legal text repeats its words, and the parse stage scores every hidden OCR layer.
@lru_cache(maxsize=65536)
def _token_credit(token: str) -> float:
    """How much a token looks like legal text: 1 known, 0.5 plausible, 0 debris."""
    if _NUMBER.match(token) or _MARKER.match(token) or _ROMAN.match(token):
        return 1.0
    lower = token.lower().rstrip(".")
    if lower in _LEXICON_EXTRA:
        return 1.0
    parts = [p for p in _PART_SEPARATOR.split(lower) if p]
    if parts and all(p.isalpha() for p in parts):
        known = sum(len(p) for p in parts if _word_known(p))
        share = known / sum(len(p) for p in parts)
        if share == 1.0:
            return 1.0
        if _ACRONYM.match(token.rstrip(".")):
            return 0.5
        return share * 0.5
    if _ACRONYM.match(token.rstrip(".")):
        return 0.5
    return 0.0


# Punctuation between two letters is a lost space ("adalah.serangkaian"), not a word part.
# The punctuation comes first so the engine scans for it instead of trying the
# look-behind at every character (3x faster on a page sample).
_GLUED = re.compile(r"[.,;:](?<=[A-Za-z][.,;:])(?=[A-Za-z]{2})")


# Cached for the same reason as the credit: a page repeats its words, each costs two
# strips and up to two regex matches.
@lru_cache(maxsize=65536)
def _bare_token(raw: str) -> str:
    token = raw.lstrip(_LEAD).rstrip(_TRAIL) if len(raw) > 1 else raw
    # Keep list markers and numbers with their punctuation: "(1)", "a.", "12.".
    if token != raw and (_MARKER.match(raw) or _NUMBER.match(raw)):
        return raw
    return token


def _tokens(text: str) -> list[str]:
    return list(filter(None, map(_bare_token, _GLUED.sub(" ", text).split())))


def _raw_doubt(raw_score: float | None) -> float:
    """How far the engine score is below saturation, 0 (>= 0.999) .. 1 (<= 0.5).

    It can only lower the confidence: a saturated score says nothing (misreads come back
    at 1.0), so it must never lift a line that does not read as Indonesian.
    """
    if raw_score is None:
        return 0.0
    p = min(max(raw_score, 0.5), 1 - 1e-3)
    return 1.0 - math.log(p / (1 - p)) / math.log(999.0)


def _length_mismatch(text: str, box_aspect: float | None) -> float:
    if not box_aspect or box_aspect <= 0:
        return 0.0
    expected = box_aspect * CHARS_PER_ASPECT
    ratio = max(len(text), 1) / max(expected, 1.0)
    return min(abs(math.log(ratio)), 2.0) / 2.0


def line_signals(
    text: str,
    raw_score: float | None = None,
    *,
    box_aspect: float | None = None,
    missed_ink: float | None = None,
) -> LineSignals:
    """Measure the signals of one recognised line (see the module docstring)."""
    stripped = text.strip()
    tokens = _tokens(stripped)
    letters = [t for t in tokens if any(c.isalnum() for c in t)]
    weights = [len(t) for t in letters]
    credits = [_token_credit(t) for t in letters]
    total = sum(weights)
    lexical = sum(c * w for c, w in zip(credits, weights, strict=True)) / total if total else 0.0
    odd = sum(1 for c in stripped if c not in _PLAIN) / len(stripped) if stripped else 1.0
    # Digits inside a word are noise unless the token is a known code such as "P3MI".
    noisy = [
        t
        for t, c in zip(letters, credits, strict=True)
        if _LOWER_THEN_UPPER.search(t) or (_DIGIT_IN_WORD.search(t) and c < 1.0)
    ]
    fragments = [
        t for t, c in zip(letters, credits, strict=True) if len(t) <= 2 and c == 0.0 and t.isalpha()
    ]
    n = max(len(letters), 1)
    return LineSignals(
        lexical=lexical,
        odd_chars=odd,
        noisy_tokens=len(noisy) / n,
        fragments=len(fragments) / n,
        raw_doubt=_raw_doubt(raw_score),
        length_mismatch=_length_mismatch(stripped, box_aspect),
        short_line=1.0 if len(letters) <= 2 else 0.0,
        missed_ink=min(max(missed_ink or 0.0, 0.0), 1.0),
        unknown_words=min(sum(1 for c in credits if c < 1.0), 5) / 5,
    )


def combine(signals: LineSignals, weights: Iterable[float] = WEIGHTS) -> float:
    z = sum(w * x for w, x in zip(weights, signals.as_vector(), strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def line_confidence(
    text: str,
    raw_score: float | None = None,
    *,
    box_aspect: float | None = None,
    missed_ink: float | None = None,
) -> float:
    """Calibrated probability (0..1) that ``text`` is a correct reading of its line.

    ``raw_score`` is the engine's own score (any engine; ``None`` when it gives none);
    ``box_aspect`` is the width/height of the detected text box(es) and ``missed_ink`` the
    share of the ink on the line's row that lies outside them (text the detector skipped),
    both when the engine gives geometry.
    Empty text is 0.0. Deterministic: the same inputs always give the same number.
    """
    if not text.strip():
        return 0.0
    signals = line_signals(text, raw_score, box_aspect=box_aspect, missed_ink=missed_ink)
    return round(combine(signals), 4)


def page_quality(texts: Iterable[str]) -> float:
    """Share of a page's characters in recognised tokens: the upside-down check."""
    known = total = 0.0
    for text in texts:
        for token in _tokens(text):
            total += len(token)
            known += _token_credit(token) * len(token)
    return known / total if total else 0.0


@lru_cache(maxsize=65536)
def _word_score(raw: str) -> tuple[int, float]:
    """A whitespace-separated word's token length and its credit times that length.

    One cache look-up per word instead of two (token, then credit): on a page sample
    read right after a text extraction, each look-up is mostly cache misses.
    """
    token = _bare_token(raw)
    return len(token), _token_credit(token) * len(token) if token else 0.0


def page_quality_reaches(texts: Iterable[str], threshold: float) -> bool:
    """``page_quality(texts) >= threshold``, stopping once the words not yet scored cannot
    change the answer (a garbled or a clean layer is usually decided halfway through).

    Words are scored only as far as needed: what is left is bounded by the length of the
    words still to come (a word's token is the word less its edge punctuation), so the
    final share lies between crediting none and crediting all of them.
    """
    words = [word for text in texts for word in _GLUED.sub(" ", text).split()]
    left = float(sum(map(len, words)))
    known = seen = 0.0
    for word in words:
        size, credit = _word_score(word)
        known += credit
        seen += size
        left -= len(word)
        most = seen + left
        if not most:  # every token so far was bare punctuation, and no word is left
            break
        margin = 1e-9 * most  # near the boundary, leave it to the exact share below
        if known >= threshold * most + margin:
            return True
        if known + left < threshold * most - margin:
            return False
    return (known / seen if seen else 0.0) >= threshold
