"""The attention scores of one ONNX Runtime call grow with rows × width²; long passages go
fewer to a call, so a worker's peak memory stays bounded, and every passage still gets the
vector it gets alone (within int8's dynamic activation scale, set per call)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ingestion.pipeline.e5.engine import BATCH_TOKENS, E5Onnx
from ingestion.pipeline.embed import default_onnx_model_path

SENTENCE = "Gubernur menetapkan rencana tata ruang wilayah Aceh setelah mendengar pertimbangan. "


def test_no_call_holds_more_attention_than_the_budget_and_vectors_do_not_change() -> None:
    engine = E5Onnx(default_onnx_model_path(), threads=2)
    texts = ["passage: " + SENTENCE * n for n in (1, 3, 40, 40, 40, 40, 40, 2, 40, 40)]
    shapes: list[tuple[int, int]] = []
    run = engine.session.run

    def recording(names: Any, feeds: dict[str, np.ndarray]) -> Any:
        shapes.append(feeds["mask"].shape)
        return run(names, feeds)

    engine.session.run = recording  # type: ignore[method-assign]
    together = engine.pooled(texts)
    assert shapes, "the engine ran no call"
    for rows, width in shapes:
        assert rows * width <= BATCH_TOKENS or rows == 1
        assert rows * width * width <= 2 * 512 * 512 or rows == 1  # two full windows at most
    assert max(width for _rows, width in shapes) > 400  # the long ones were long
    assert len(shapes) >= 2
    engine.session.run = run  # type: ignore[method-assign]
    alone = np.stack([engine.pooled([t])[0] for t in texts])
    cosines = np.sum(together * alone, axis=1)
    assert cosines.min() >= 0.99
