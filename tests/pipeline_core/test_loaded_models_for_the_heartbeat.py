"""The heartbeat reports the models this process really loaded, and only those."""

from __future__ import annotations

from typing import Any

from ingestion.pipeline import embed
from ingestion.pipeline.engines import loaded_models


def test_an_embedder_counts_as_loaded_only_after_its_model_is_loaded() -> None:
    embedder = embed.LocalE5Embedder("multilingual-e5-small-q4")
    assert embedder.loaded is False
    embedder.embed_query("qanun aceh", interactive=False)
    assert embedder.loaded is True


def test_the_process_embedder_is_reported_once_after_use(settings: Any) -> None:
    settings.MODEL_GATEWAY_URL = None
    embedder = embed.get_embedder()
    embedder.embed_query("peraturan gubernur", interactive=False)
    assert loaded_models().count(embedder.model_id) == 1
