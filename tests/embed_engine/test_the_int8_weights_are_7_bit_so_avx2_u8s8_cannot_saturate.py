"""The quantised matmul weights fit 7 bits: u8 x s8 pair sums then stay inside int16.

AVX2 (and AVX-512 without VNNI) multiplies uint8 activations by int8 weights with
``vpmaddubsw``, which adds two products into a saturating int16: 2 x 255 x 127 overflows
it, 2 x 255 x 64 does not. The int8 OCR detector once failed exactly so.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import numpy_helper

from ingestion.pipeline.e5.engine import FLOAT_LINEARS
from ingestion.pipeline.embed import default_onnx_model_path

INT16_MAX = 32767


def _int8_weights() -> list[np.ndarray]:
    model = onnx.load(str(default_onnx_model_path()))
    return [
        numpy_helper.to_array(t)
        for t in model.graph.initializer
        if t.data_type == onnx.TensorProto.INT8 and t.dims and len(t.dims) == 2
    ]


def test_every_matmul_weight_is_int8_of_magnitude_at_most_64() -> None:
    # ONNX Runtime's symmetric reduce_range scale maps the largest weight to ±64.
    weights = _int8_weights()
    # q, k, v, attention out, FFN in, FFN out per layer, less the linears kept float32
    assert len(weights) == 12 * 6 - len(FLOAT_LINEARS)
    for w in weights:
        assert int(np.abs(w.astype(np.int32)).max()) <= 64


def test_the_worst_u8_s8_pair_sum_stays_inside_int16() -> None:
    worst = max(int(np.abs(w.astype(np.int32)).max()) for w in _int8_weights())
    assert 2 * 255 * worst <= INT16_MAX
