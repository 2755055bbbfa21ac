"""The local embedder a setting picks, built as the pipeline builds it."""

from __future__ import annotations

from pathlib import Path

from django.test import override_settings

from ingestion.pipeline import embed
from ingestion.pipeline.embed_choices import LocalEmbedEngine


def local_embedder(engine: LocalEmbedEngine, path: Path) -> embed.Embedder:
    """``get_embedder()`` with no gateway, ``engine`` chosen and its model at ``path``."""
    where = "LOCAL_EMBED_FP32_PATH" if engine == LocalEmbedEngine.FP32 else "LOCAL_EMBED_ONNX_PATH"
    with override_settings(MODEL_GATEWAY_URL=None, LOCAL_EMBED_ENGINE=engine, **{where: str(path)}):
        return embed.get_embedder()
