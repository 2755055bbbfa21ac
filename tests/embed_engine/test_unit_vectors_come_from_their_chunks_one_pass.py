"""A regulation's ayat and huruf take their vectors from their chunk's one forward pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ingestion.models import Chunk, LegalUnit
from ingestion.pipeline import embed
from ingestion.pipeline.runner import ingest
from tests.pipeline_core.helpers import RecordingObserver, doc_id, make_request, put_object

pytestmark = pytest.mark.django_db

REGULATION = (
    "QANUN ACEH NOMOR 7 TAHUN 2026\n\n"
    "Pasal 1\n\n"
    "(1) Setiap badan usaha wajib mendaftarkan usahanya kepada Dinas.\n"
    "(2) Pendaftaran sebagaimana dimaksud pada ayat (1) dilengkapi dengan:\n"
    "a. akta pendirian badan usaha;\n"
    "b. nomor pokok wajib pajak; dan\n"
    "c. surat keterangan domisili.\n\n"
    "Pasal 2\n\n"
    "Retribusi pelayanan pasar dipungut atas penyediaan tempat berjualan.\n"
)


class Spy:
    """Counts the tokens the engine encodes and every passage embedded alone."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tokens = 0
        self.alone = 0
        encode, passages = embed.OnnxE5Embedder.encode, embed.OnnxE5Embedder._passages

        def counting_encode(inner: embed.OnnxE5Embedder, texts: list[str]) -> list[Any]:
            self.tokens += sum(len(inner.engine.tokenize(t).ids) for t in texts)
            return encode(inner, texts)

        def counting_passages(inner: embed.OnnxE5Embedder, texts: list[str]) -> Any:
            self.alone += len(texts)
            return passages(inner, texts)

        monkeypatch.setattr(embed.OnnxE5Embedder, "encode", counting_encode)
        monkeypatch.setattr(embed.OnnxE5Embedder, "_passages", counting_passages)


def test_each_chunk_is_encoded_once_and_its_units_share_that_pass(
    store_dir: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.MODEL_GATEWAY_URL = None
    engine = embed.get_embedder()
    assert isinstance(engine, embed.OnnxE5Embedder)
    spy = Spy(monkeypatch)
    put_object(store_dir, "a/qanun7.txt", REGULATION.encode())
    result = ingest(make_request("a/qanun7.txt"), RecordingObserver())
    chunks = list(Chunk.objects.filter(document_id=doc_id(result)))
    passages = [embed.PASSAGE_PREFIX + embed.passage_text(c.heading_path, c.text) for c in chunks]
    assert spy.tokens == sum(len(engine.engine.tokenize(p).ids) for p in passages)
    assert spy.alone == 0
    units = LegalUnit.objects.filter(document_id=doc_id(result)).exclude(embedding=None)
    assert {u.huruf for u in units} >= {"a", "b", "c"}
    assert {u.embedding_model for u in units} == {engine.model_id}
    for unit in units:
        assert abs(np.linalg.norm(np.array(unit.embedding)) - 1.0) < 1e-4


def test_a_unit_vector_is_the_mean_of_its_tokens_states(settings: Any) -> None:
    settings.MODEL_GATEWAY_URL = None
    engine = embed.get_embedder()
    assert isinstance(engine, embed.OnnxE5Embedder)
    text = "passage: Pasal 1\n(1) Setiap badan usaha wajib mendaftar.\n(2) Pendaftaran gratis."
    (encoded,) = engine.encode([text])
    start = text.index("(2)")
    vector = encoded.span_vector(start, len(text))
    inside = encoded.starts >= start
    mean = encoded.states[inside].mean(axis=0)
    assert np.allclose(vector, mean / np.linalg.norm(mean), atol=1e-6)
    assert 0 < inside.sum() < len(encoded.starts)
