"""Build the int8 OCR detector from the rapidocr wheel's float one (``make install`` runs it).

Static QDQ quantisation (ONNX Runtime), per-channel int8 weights held to 7 bits
(``reduce_range``) and uint8 activations, calibrated on detector inputs of synthetic pages
from the TUNE split of ``bench/ocr_synth`` (never the held-out one). The PP-OCRv6 graph is
opset 11; per-axis DequantizeLinear needs 13, so the opset is converted first. Only the
detector is quantised: the recogniser came out slower or less accurate in every variant
measured (docs/decisions.md, issue #24).

    .venv/bin/python scripts/quantize_ocr.py [--pages 8] [--force]

Writes ``ingestion.pipeline.ocr.local.int8_det_model()``; does nothing when it exists.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

log = logging.getLogger("quantize_ocr")
OPSET = 13  # per-axis (per-channel) DequantizeLinear
TUNE_SEED = 100_003 + 17  # tune-split text; not the bench's own page seeds


def detector_inputs(pages: int) -> list[dict[str, Any]]:
    """What the float detector is fed for ``pages`` tune-split pages, as the engine feeds it."""
    from ocr_synth import LEVELS, make_page, split_sources

    from ingestion.pipeline.ocr.local import build_rapidocr

    ocr = build_rapidocr()
    detector = ocr._load_det_model()
    session = detector.session.session
    feeds: list[dict[str, Any]] = []

    class Recorder:
        def run(self, names: Any, feed: dict[str, Any]) -> Any:
            feeds.append({k: v.copy() for k, v in feed.items()})
            return session.run(names, feed)

        def __getattr__(self, name: str) -> Any:
            return getattr(session, name)

    detector.session.session = Recorder()
    source = split_sources()["tune"]
    for i in range(pages):
        level = LEVELS[i % 3]  # clean, light, medium: what the scans look like
        image, _record = ocr.preprocess_img(make_page(source, level, TUNE_SEED + i * 7919).image)
        detector(image)
    return feeds


class _Reader:
    """onnxruntime.quantization's CalibrationDataReader protocol over recorded inputs."""

    def __init__(self, feeds: list[dict[str, Any]]) -> None:
        self._feeds: Iterator[dict[str, Any]] = iter(feeds)

    def get_next(self) -> dict[str, Any] | None:
        return next(self._feeds, None)


def quantize_detector(float_model: Path, out: Path, pages: int) -> None:
    import onnx
    from onnx import version_converter
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    feeds = detector_inputs(pages)
    with tempfile.TemporaryDirectory() as tmp:
        converted, prepared = Path(tmp) / "det13.onnx", Path(tmp) / "det13pp.onnx"
        onnx.save(version_converter.convert_version(onnx.load(float_model), OPSET), converted)
        # Symbolic shape inference cannot finish on the dynamic page size; ONNX's own can.
        quant_pre_process(str(converted), str(prepared), skip_symbolic_shape=True)
        partial = out.with_suffix(".partial")
        quantize_static(
            str(prepared),
            str(partial),
            _Reader(feeds),  # type: ignore[arg-type]
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            weight_type=QuantType.QInt8,
            activation_type=QuantType.QUInt8,
            calibrate_method=CalibrationMethod.MinMax,
            # u8s8 products saturate on AVX2 and AVX-512 without VNNI (ONNX Runtime's
            # quantisation docs); full 8-bit weights there split one text line into two
            # boxes, out of order. 7-bit weights cost 0.04 CPU-s/page and split nothing.
            reduce_range=True,
        )
        partial.replace(out)  # never a half-written model where the engine looks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=8, help="tune-split calibration pages")
    parser.add_argument("--force", action="store_true", help="rebuild even if present")
    args = parser.parse_args()
    # The quantiser logs a line per rescaled weight channel; only ours are worth reading.
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    log.setLevel(logging.INFO)
    from ingestion.pipeline.ocr.local import DET_MODEL, int8_det_model, model_dir

    out = int8_det_model()
    if out.is_file() and not args.force:
        log.info("int8 detector present: %s", out)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    quantize_detector(model_dir() / DET_MODEL, out, args.pages)
    log.info("int8 detector built in %.0f s: %s", time.monotonic() - started, out)


if __name__ == "__main__":
    main()
