"""Lines are read one at a time, shared among two threads, and read as they would alone.

A line's reading must not depend on the other lines of its page: in a batch every line was
padded to the widest one's width, and that padding changed what the model read.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

import numpy as np

from ingestion.pipeline.ocr.local import (
    DET_MODEL,
    LocalOcrEngine,
    SessionChoice,
    SplitRecogniser,
    model_dir,
)

from .helpers import LEGAL_LINES, as_page, engine, render_lines, ruin

PAGE_LINES = (*LEGAL_LINES, "1", "BAB II", "Pasal 12 A")


@cache
def one_thread() -> LocalOcrEngine:
    return LocalOcrEngine(options=SessionChoice(threads=1))


@cache
def float_detector() -> LocalOcrEngine:
    """The float detector still finds lines on a ruined page, where the int8 one finds none."""
    return LocalOcrEngine(det_model=model_dir() / DET_MODEL, options=SessionChoice(threads=1))


def crops(image: Any) -> list[np.ndarray]:
    """The text boxes the detector finds, cut out as the recogniser gets them."""
    bgr = np.asarray(image)[:, :, ::-1]
    ocr = float_detector()._ocr
    small, record = ocr.preprocess_img(bgr)
    cut, _det = ocr.detect_and_crop(small, record)
    assert len(cut) >= 4, "lines are found to read"
    return list(cut)


def read(e: LocalOcrEngine, images: list[np.ndarray]) -> list[tuple[str, float]]:
    from rapidocr.ch_ppocr_rec import TextRecInput

    out = e._ocr.text_rec(TextRecInput(img=images))
    return list(zip(out.txts, out.scores, strict=True))


def test_the_default_engine_shares_a_pages_lines_among_two_threads() -> None:
    reader = engine()._ocr.text_rec
    assert isinstance(reader, SplitRecogniser)
    assert reader.workers == 2
    assert engine().cascade is not None, "each thread reads tiny first, small where in doubt"


def test_a_line_reads_the_same_alone_as_beside_the_other_lines_of_its_page() -> None:
    lines = crops(render_lines(PAGE_LINES))
    together = read(one_thread(), lines)
    alone = [read(one_thread(), [line])[0] for line in lines]
    assert [text for text, _ in together] == [text for text, _ in alone]
    assert np.allclose([s for _, s in together], [s for _, s in alone], atol=1e-4)


def test_a_page_read_on_two_threads_reads_as_on_one() -> None:
    for image in (render_lines(PAGE_LINES), ruin(render_lines(PAGE_LINES))):
        lines = crops(image)
        single, split = read(one_thread(), lines), read(engine(), lines)
        assert [t for t, _ in split] == [t for t, _ in single]
        assert np.allclose([s for _, s in split], [s for _, s in single], atol=1e-4)
        page = engine().recognize(as_page(image))
        assert page.text == one_thread().recognize(as_page(image)).text


def test_a_thread_that_runs_out_of_memory_fails_only_its_page_and_sends_it_to_review() -> None:
    e = LocalOcrEngine(options=SessionChoice(threads=2))
    reader = e._ocr.text_rec
    assert isinstance(reader, SplitRecogniser)
    calls: list[int] = []

    def starved(args: Any) -> Any:
        calls.append(len(args.img))
        raise MemoryError("Failed to allocate memory for requested buffer")

    reader.inner = starved
    page = e.recognize(as_page(render_lines(PAGE_LINES), number=3))
    assert len(calls) == 2, "both threads were given lines"
    assert [line.confidence for line in page.lines] == [0.0]
    assert "Halaman 3" in page.text and "memori tidak cukup" in page.text


def test_one_thread_out_of_memory_sends_the_page_to_review_whatever_the_other_hit() -> None:
    e = LocalOcrEngine(options=SessionChoice(threads=2))
    reader = e._ocr.text_rec
    assert isinstance(reader, SplitRecogniser)
    calls: list[int] = []
    lock = threading.Lock()

    def one_broken_one_starved(args: Any) -> Any:
        with lock:
            calls.append(len(args.img))
            first = len(calls) == 1
        if first:
            raise ValueError("a model error that is not about memory")
        raise MemoryError("Failed to allocate memory for requested buffer")

    reader.inner = one_broken_one_starved
    page = e.recognize(as_page(render_lines(PAGE_LINES), number=4))
    assert len(calls) == 2
    assert "Halaman 4" in page.text and "memori tidak cukup" in page.text
