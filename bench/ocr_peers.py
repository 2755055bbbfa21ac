"""Our OCR beside Tesseract (``tesseract -l ind``) on the same pages, for ``bench/ocr.py``.

- CER on synthetic pages with ground truth (``ocr_synth``, held-out split), page level:
  the whole page's text against the whole truth, whitespace collapsed, so reading order
  and line splitting count the same for both engines.
- s/page on the real scans of the corpus (the pages our parse sends to OCR), rendered at
  the pipeline's 200 dpi, and the share of characters in dictionary words (``page_quality``)
  since those pages have no ground truth.

Each page goes to ours, then to Tesseract, before the next page, so load from other
processes falls on both alike. Times are wall-clock seconds and CPU seconds (ours: this
process; Tesseract: its child process). Tesseract runs twice: as installed (its OpenMP
threads on) and with ``OMP_THREAD_LIMIT=1``, the setting OCRmyPDF uses for parallel pages
and the faster one on a small server; a user would pick the better of the two.
"""

from __future__ import annotations

import io
import os
import resource
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from ocr_metrics import cer
from ocr_synth import LEVELS, make_page, split_sources

from ingestion.pipeline.ocr.confidence import page_quality
from ingestion.pipeline.ocr.local import SessionChoice

CORPUS = Path("/work/shared/corpus/docs")
CORPUS_DPI = 200
TESSERACT_LANG = "ind"
Reader = Callable[[bytes, int], tuple[str, float, float]]
# Another row of ours: its label, its session settings (None: the run's) and model files.
Variant = tuple[str, SessionChoice | None, tuple[Path | None, Path | None]]


@dataclass
class EngineRow:
    name: str
    cer: dict[str, list[float]] = field(default_factory=dict)
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    quality: list[float] = field(default_factory=list)


def tesseract_available() -> bool:
    if shutil.which("tesseract") is None:
        return False
    langs = subprocess.run(
        ["tesseract", "--list-langs"], capture_output=True, text=True, check=False
    ).stdout.split()
    return TESSERACT_LANG in langs


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def tesseract_read(png: bytes, *, one_thread: bool = False) -> tuple[str, float, float]:
    """Text, wall s and CPU s of ``tesseract - - -l ind`` on one PNG.

    ``one_thread`` sets ``OMP_THREAD_LIMIT=1``, as OCRmyPDF does when it reads pages in
    parallel: on two cores Tesseract's own OpenMP threads cost it far more than they give.
    """
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"} if one_thread else None
    cpu0, wall0 = _child_cpu(), time.perf_counter()
    out = subprocess.run(
        ["tesseract", "-", "-", "-l", TESSERACT_LANG],
        input=png,
        capture_output=True,
        check=True,
        env=env,
    )
    return out.stdout.decode("utf-8", "replace"), time.perf_counter() - wall0, _child_cpu() - cpu0


def ours_reader(
    choice: SessionChoice | None = None, models: tuple[Path | None, Path | None] = (None, None)
) -> Reader:
    from ingestion.pipeline.ocr.images import PageImage
    from ingestion.pipeline.ocr.local import LocalOcrEngine

    engine = LocalOcrEngine(options=choice, det_model=models[0], rec_model=models[1])

    def read(png: bytes, dpi: int) -> tuple[str, float, float]:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        reading = engine.read_page(PageImage(page=1, image=png, dpi=dpi))
        text = "\n".join(line.text for line in reading.lines)
        return text, time.perf_counter() - wall0, time.process_time() - cpu0

    return read


def _png(bgr: np.ndarray) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(bgr[:, :, ::-1])).save(buffer, format="PNG")
    return buffer.getvalue()


def corpus_pages(limit: int) -> list[tuple[Path, int]]:
    """The corpus pages our parse sends to OCR, a few from each scan, up to ``limit``."""
    from ingestion.pipeline.parse import ParseLimits, parse

    picked: list[tuple[Path, int]] = []
    files = sorted(CORPUS.glob("*.pdf")) if CORPUS.is_dir() else []
    per_file = {path: parse(path, "pdf", ParseLimits()).ocr_pages for path in files}
    while len(picked) < limit and any(per_file.values()):
        for path, pages in per_file.items():  # round robin: every scan is represented
            if pages and len(picked) < limit:
                picked.append((path, pages.pop(0)))
    return picked


def compare(
    synthetic_pages: int,
    corpus_limit: int,
    levels: int,
    choice: SessionChoice | None = None,
    variants: Sequence[Variant] = (),
) -> list[EngineRow]:
    """Ours, each variant (other settings or model files), then Tesseract, page by page."""
    from ingestion.pipeline.parse import render_page_png

    readers = [ours_reader(choice)]
    readers += [ours_reader(other or choice, models) for _, other, models in variants]
    readers += [tesseract_read_at, tesseract_one_thread_at]
    rows = [EngineRow("ours (RapidOCR PP-OCRv6)")]
    rows += [EngineRow(f"ours {name}") for name, _, _ in variants]
    rows.append(EngineRow(f"tesseract -l {TESSERACT_LANG}"))
    rows.append(EngineRow(f"tesseract -l {TESSERACT_LANG}, 1 thr"))
    sources = split_sources()["report"]
    for level in LEVELS[:levels]:
        for i in range(synthetic_pages):
            page = make_page(sources, level, seed=2 * 100_003 + i * 7919)
            truth = "\n".join(line.text for line in page.truth)
            png = _png(page.image)
            for row, text in zip(rows, _all(readers, png, level.dpi), strict=True):
                row.cer.setdefault(level.name, []).append(cer(text, truth))
    for path, number in corpus_pages(corpus_limit):
        png = render_page_png(path, number, CORPUS_DPI)
        for row, (text, wall, cpu) in zip(rows, _all_timed(readers, png, CORPUS_DPI), strict=True):
            row.wall.append(wall)
            row.cpu.append(cpu)
            row.quality.append(page_quality(text.splitlines()))
    return rows


def tesseract_read_at(png: bytes, dpi: int) -> tuple[str, float, float]:
    return tesseract_read(png)


def tesseract_one_thread_at(png: bytes, dpi: int) -> tuple[str, float, float]:
    return tesseract_read(png, one_thread=True)


def _all_timed(readers: Sequence[Reader], png: bytes, dpi: int) -> list[tuple[str, float, float]]:
    return [read(png, dpi) for read in readers]


def _all(readers: Sequence[Reader], png: bytes, dpi: int) -> list[str]:
    return [text for text, _wall, _cpu in _all_timed(readers, png, dpi)]


def print_table(rows: list[EngineRow]) -> None:
    """One table, ours first; the last columns are each engine's figures ÷ ours."""
    levels = list(rows[0].cer)
    pages = len(rows[0].wall)
    print(
        f"\nOCR engines on the same pages (CER: synthetic held-out pages per level, "
        f"{len(rows[0].cer[levels[0]]) if levels else 0} each; s/page: {pages} corpus scan "
        f"pages at {CORPUS_DPI} dpi, median)"
    )
    width = max(26, *(len(row.name) for row in rows))
    head = f"{'engine':<{width}} " + " ".join(f"{'CER ' + lv:>12}" for lv in levels)
    head += f" {'s/page':>7} {'CPU s/page':>10} {'dict words':>10} {'÷ours s/page':>12}"
    head += f" {'÷ours CER':>10}"
    print(head)
    base_wall = statistics.median(rows[0].wall) if pages else float("nan")
    base_cer = _mean_cer(rows[0])
    for row in rows:
        cers = " ".join(f"{statistics.mean(row.cer[lv]):>12.2%}" for lv in levels)
        wall = statistics.median(row.wall) if pages else float("nan")
        cpu = statistics.median(row.cpu) if pages else float("nan")
        quality = statistics.mean(row.quality) if pages else float("nan")
        cer_ratio = _mean_cer(row) / base_cer if base_cer else float("nan")
        print(
            f"{row.name:<{width}} {cers} {wall:>7.2f} {cpu:>10.2f} {quality:>10.3f} "
            f"{wall / base_wall:>12.2f} {cer_ratio:>10.2f}"
        )


def _mean_cer(row: EngineRow) -> float:
    values = [v for level in row.cer.values() for v in level]
    return statistics.mean(values) if values else float("nan")
