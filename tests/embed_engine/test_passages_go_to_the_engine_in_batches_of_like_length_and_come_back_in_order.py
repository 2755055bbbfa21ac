"""A regulation hands the embedder its chunks (~180 tokens) and then its ayat and huruf
(~30). Every row of an engine call is padded to the call's longest, so batches follow the
passages' length, not their order, and a call never pads short windows to a long one; each
vector still comes back in its passage's place."""

from __future__ import annotations

from typing import Any

import numpy as np

from ingestion.pipeline.embed import OnnxE5Embedder, default_onnx_model_path

SENTENCE = "Gubernur menetapkan rencana tata ruang wilayah Aceh setelah mendengar pertimbangan. "


def test_padding_stays_near_the_tokens_and_each_vector_is_its_passages() -> None:
    embedder = OnnxE5Embedder("int8-test", default_onnx_model_path(), threads=2)
    chunks = [f"Pasal {n}\n" + SENTENCE * 10 for n in range(40)]
    units = [f"({n}) " + SENTENCE for n in range(60)]
    texts = chunks + units  # the order ingestion gives: a document's chunks, then its units
    padded: list[int] = []
    run = embedder.engine.session.run

    def recording(names: Any, feeds: dict[str, np.ndarray]) -> Any:
        padded.append(feeds["mask"].size)
        return run(names, feeds)

    embedder.engine.session.run = recording  # type: ignore[method-assign]
    together = np.array(embedder.embed_passages(texts))
    embedder.engine.session.run = run  # type: ignore[method-assign]

    tokens = sum(len(embedder.engine.tokenize("passage: " + t).ids) + 2 for t in texts)
    assert sum(padded) <= 1.15 * tokens
    alone = np.array([embedder.embed_passages([t])[0] for t in texts])
    assert np.sum(together * alone, axis=1).min() >= 0.99
