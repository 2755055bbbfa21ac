"""The int8 engine keeps the FFN output projection of layers 0–5 in float32, where most of
its quantisation error was made (docs/decisions.md), and every other matmul int8."""

from __future__ import annotations

import onnx

from ingestion.pipeline.e5.engine import FLOAT_LINEARS
from ingestion.pipeline.embed import default_onnx_model_path


def _ops_by_name() -> dict[str, str]:
    model = onnx.load(str(default_onnx_model_path()), load_external_data=False)
    return {node.name: node.op_type for node in model.graph.node}


def test_the_listed_linears_are_plain_float_matmuls() -> None:
    ops = _ops_by_name()
    assert FLOAT_LINEARS == tuple(f"l{layer}.fo" for layer in range(6))
    assert all(ops.get(f"{linear}.matmul") == "MatMul" for linear in FLOAT_LINEARS)


def test_every_other_linear_is_quantised() -> None:
    ops = _ops_by_name()
    # attention's own matmuls (scores, weighted values) have no weights and stay float
    float_linears = {n for n, op in ops.items() if op == "MatMul" and n.endswith(".matmul")}
    assert float_linears == {f"{linear}.matmul" for linear in FLOAT_LINEARS}
    quantised = {n for n, op in ops.items() if op == "MatMulInteger"}
    assert len(quantised) == 12 * 6 - len(FLOAT_LINEARS)
    assert not any(n.startswith(FLOAT_LINEARS) for n in quantised)
