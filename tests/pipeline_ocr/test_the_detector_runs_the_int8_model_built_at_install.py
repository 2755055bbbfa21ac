"""The detector runs the int8 model ``make install`` builds, and only the one built from
the installed float model (a missing one falls back: test_a_model_that_fails_to_load_...)."""

from __future__ import annotations

import shutil
from pathlib import Path

from ingestion.pipeline.ocr.local import DET_MODEL, LocalOcrEngine, int8_det_model, model_dir
from tests.pipeline_ocr.helpers import LEGAL_LINES, as_page, engine, render_lines


def _detector_model(ocr_engine: LocalOcrEngine) -> Path:
    return Path(ocr_engine._ocr._load_det_model().session.session._model_path)


def test_the_default_engine_detects_with_the_int8_model_and_still_reads_the_page() -> None:
    assert int8_det_model().is_file(), "make install builds it: scripts/quantize_ocr.py"
    assert _detector_model(engine()) == int8_det_model()
    page = engine().recognize(as_page(render_lines(LEGAL_LINES)))
    assert "Pasal 7" in page.text
    assert "Peraturan Gubernur" in page.text


def test_an_int8_model_built_from_another_float_model_is_not_the_one_looked_for(
    tmp_path: Path,
) -> None:
    shutil.copy(model_dir() / DET_MODEL, tmp_path / DET_MODEL)
    with (tmp_path / DET_MODEL).open("ab") as changed:
        changed.write(b"\0")
    assert int8_det_model(tmp_path) != int8_det_model()
    assert int8_det_model(tmp_path).parent == int8_det_model().parent


def test_the_int8_detector_finds_the_lines_the_float_one_finds_in_the_same_order() -> None:
    """Full 8-bit weights saturated on CPUs without VNNI and cut a line in two, out of order;
    the model is built with 7-bit weights so that every CPU reads a page as the float one."""
    image = as_page(render_lines(LEGAL_LINES))
    float_engine = LocalOcrEngine(det_model=model_dir() / DET_MODEL)
    assert [line.text for line in engine().recognize(image).lines] == [
        line.text for line in float_engine.recognize(image).lines
    ]
    assert len(engine().recognize(image).lines) == len(LEGAL_LINES)
