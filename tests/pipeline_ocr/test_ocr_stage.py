"""The runner's OCR step (``run_ocr``, the path production takes) turns scanned pages into
blocks with a confidence, and marks a page whose ink it could not read."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pymupdf
from PIL import Image, ImageDraw

from ingestion.pipeline.base import BlockKind
from ingestion.pipeline.ocr.step import OcrOutcome, run_ocr
from ingestion.pipeline.parse import render_page_png
from ingestion.pipeline.request import CompositeObserver
from ingestion.pipeline.retry import RetryPolicy

from .helpers import LEGAL_LINES, render_lines

UNREAD = "[Halaman 1: tulisan tidak terbaca oleh OCR]"


class Recorder:
    """An observer that keeps what the step announced."""

    def __init__(self) -> None:
        self.milestones: list[str] = []
        self.percents: list[int] = []

    def milestone(self, key: str, **_kwargs: Any) -> None:
        self.milestones.append(key)

    def progress(self, _stage: str, percent: int) -> None:
        self.percents.append(percent)


def _pdf_of(image: Image.Image, path: Path) -> Path:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    doc = pymupdf.open()
    page = doc.new_page(width=image.width * 72 / 150, height=image.height * 72 / 150)
    page.insert_image(page.rect, stream=buf.getvalue())
    doc.save(path)
    doc.close()
    return path


def _read(path: Path, settings: Any) -> tuple[OcrOutcome, Recorder]:
    settings.MODEL_GATEWAY_URL = None  # the local engine
    recorder = Recorder()
    outcome = run_ocr(
        path,
        [1],
        render=render_page_png,
        observer=CompositeObserver(recorder),
        policy=RetryPolicy(retries=0),
        dpi=150,
        max_pixels=None,
    )
    return outcome, recorder


def test_a_scanned_pdf_page_becomes_blocks_with_confidence(tmp_path: Path, settings: Any) -> None:
    pdf = _pdf_of(render_lines(LEGAL_LINES), tmp_path / "scan.pdf")

    outcome, recorder = _read(pdf, settings)

    assert outcome.blocks[0].kind is BlockKind.HEADING
    assert outcome.blocks[0].text == "Pasal 7"
    assert "ayat (1) diatur lebih lanjut" in " ".join(b.text for b in outcome.blocks)
    assert outcome.min_confidence is not None and outcome.min_confidence >= 0.75
    assert recorder.milestones == ["ocr_pending"]
    assert recorder.percents == [45]


def test_a_page_with_ink_but_nothing_readable_is_marked_unread(
    tmp_path: Path, settings: Any
) -> None:
    image = Image.new("RGB", (800, 600), "white")
    draw = ImageDraw.Draw(image)
    for i in range(12):
        draw.ellipse((40 + i * 55, 100 + (i % 3) * 120, 120 + i * 55, 260 + (i % 3) * 120), "black")

    outcome, _ = _read(_pdf_of(image, tmp_path / "ink.pdf"), settings)

    # The marker travels as a block, so the runner's chunk minimum sees the lost page too.
    assert (UNREAD, 0.0) in [(b.text, b.ocr_confidence) for b in outcome.blocks]
    assert outcome.min_confidence == 0.0


def test_a_blank_page_is_not_marked_unread(tmp_path: Path, settings: Any) -> None:
    outcome, _ = _read(_pdf_of(Image.new("RGB", (800, 600), "white"), tmp_path / "b.pdf"), settings)

    assert outcome.blocks == []
    assert outcome.min_confidence is None
