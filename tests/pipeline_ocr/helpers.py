"""Rendered test pages and one shared local engine for the OCR tests."""

from __future__ import annotations

import io
import random
from functools import cache

import numpy as np
import pymupdf
from PIL import Image, ImageFilter

from ingestion.pipeline.ocr.images import PageImage
from ingestion.pipeline.ocr.local import LocalOcrEngine

LEGAL_LINES = (
    "Pasal 7",
    "(1) Pemerintah Aceh menyelenggarakan urusan pemerintahan",
    "sesuai dengan ketentuan peraturan perundang-undangan.",
    "(2) Ketentuan sebagaimana dimaksud pada ayat (1) diatur",
    "lebih lanjut dengan Peraturan Gubernur.",
)


@cache
def engine() -> LocalOcrEngine:
    return LocalOcrEngine()


def render_lines(lines: tuple[str, ...], *, dpi: int = 150, size: float = 12.0) -> Image.Image:
    """A small page (A5 width) with one text line per entry, rendered like a clean scan."""
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=40 + 22 * len(lines))
    for i, text in enumerate(lines):
        page.insert_text((30, 34 + 22 * i), text, fontname="tiro", fontsize=size)
    pix = page.get_pixmap(dpi=dpi)
    image = Image.open(io.BytesIO(pix.tobytes("png"))).convert("RGB")
    doc.close()
    return image


def ruin(image: Image.Image, *, seed: int = 7) -> Image.Image:
    """Blur, downsample and bury a page in noise until little of it is legible."""
    rng = np.random.default_rng(seed)
    small = image.filter(ImageFilter.GaussianBlur(1.5)).reduce(2)
    gray = np.asarray(small.convert("L"), dtype=np.float32)
    gray = (245 - (245 - gray) * 0.7 + rng.normal(0, 20, gray.shape)).astype(np.float32)
    specks = rng.random(gray.shape)
    gray[specks < 0.02] = 0
    big = Image.fromarray(np.clip(gray, 0, 255).astype(np.uint8)).resize(image.size)
    return big.convert("RGB")


def as_page(image: Image.Image, number: int = 1) -> PageImage:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return PageImage(page=number, image=buf.getvalue(), dpi=150)


def gibberish_line(seed: int, words: int = 7) -> str:
    rng = random.Random(seed)
    alphabet = "bcdfghjklmnpqrstvwxzaeiou"
    return " ".join(
        "".join(rng.choice(alphabet) for _ in range(rng.randint(3, 8))) for _ in range(words)
    )
