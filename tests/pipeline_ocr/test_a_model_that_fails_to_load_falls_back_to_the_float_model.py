"""A broken or missing optional model (a quantised one, say) never stops the worker."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ingestion.pipeline.ocr.local import LocalOcrEngine
from tests.pipeline_ocr.helpers import LEGAL_LINES, as_page, render_lines


def test_a_corrupt_recogniser_model_falls_back_to_the_float_model_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broken = tmp_path / "rec_int8.onnx"
    broken.write_bytes(b"this is not an ONNX model")
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.ocr.local"):
        engine = LocalOcrEngine(rec_model=broken)
    assert any("failed to load" in r.getMessage() for r in caplog.records)
    page = engine.recognize(as_page(render_lines(LEGAL_LINES[:2])))
    assert "Pasal 7" in page.text


def test_a_missing_detector_model_falls_back_to_the_float_model_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.ocr.local"):
        engine = LocalOcrEngine(det_model=tmp_path / "det_int8.onnx")
    assert any("is missing" in r.getMessage() for r in caplog.records)
    page = engine.recognize(as_page(render_lines(LEGAL_LINES[:2])))
    assert "Pasal 7" in page.text
