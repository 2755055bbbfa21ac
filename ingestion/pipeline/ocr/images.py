"""Page images for OCR: decoding within a pixel budget, and marking pages that were not read.

A page with ink but (almost) no text read gets a zero-confidence marker line
(:func:`flag_unread`), so the document goes to review instead of silently losing text.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
from django.conf import settings
from PIL import Image, ImageFilter, UnidentifiedImageError

from ingestion.errors import PermanentError
from ingestion.pipeline.base import OcrLine, OcrPage

DEFAULT_DPI = 200
# A page with this share of ink (text, not specks) but fewer characters read is "unread".
MIN_INK = 0.01
MIN_PAGE_CHARS = 40
INK_DARKER_THAN_PAPER = 50
UNREAD_TEXT = "[Halaman {page}: tulisan tidak terbaca oleh OCR]"
DEFAULT_MAX_IMAGE_PIXELS = 80_000_000


@dataclass(slots=True)
class PageImage:
    """One page to read: PNG/JPEG/TIFF bytes or a decoded PIL image, 1-based page number."""

    page: int
    image: bytes | Image.Image
    dpi: int = DEFAULT_DPI


def max_image_pixels() -> int:
    try:
        return int(settings.INGEST_MAX_IMAGE_PIXELS)
    except Exception:  # settings not configured (bench, plain scripts)
        return DEFAULT_MAX_IMAGE_PIXELS


def load_image(page: PageImage, *, max_pixels: int | None = None) -> Image.Image:
    """Decode a page to RGB, refusing images larger than the pixel budget (zip bombs)."""
    limit = max_pixels or max_image_pixels()
    if not isinstance(page.image, bytes):
        image = page.image
    else:
        try:
            image = Image.open(io.BytesIO(page.image))
        except (UnidentifiedImageError, OSError) as exc:
            raise PermanentError(
                f"Gambar halaman {page.page} rusak / tidak dapat dibaca",
                code="image_unreadable",
                detail=str(exc),
            ) from exc
    if image.width * image.height > limit:
        raise PermanentError(
            f"Gambar halaman {page.page} terlalu besar ({image.width}×{image.height} piksel)",
            code="image_too_large",
        )
    return image.convert("RGB") if image.mode != "RGB" else image


def png_bytes(page: PageImage) -> bytes:
    if isinstance(page.image, bytes) and page.image.startswith(b"\x89PNG"):
        return page.image
    buf = io.BytesIO()
    load_image(page).save(buf, format="PNG")
    return buf.getvalue()


def flag_unread(ocr_page: OcrPage, image: PageImage) -> OcrPage:
    """Add a zero-confidence marker line to a page with ink but (almost) nothing read.

    Without it such a page would simply have no blocks, and nothing downstream would know
    text was lost. The marker becomes a block, then a chunk with confidence 0.0, so the
    document goes to review and the reviewer reads which page to check.
    """
    if len(ocr_page.text.strip()) >= MIN_PAGE_CHARS or is_unread(ocr_page):
        return ocr_page
    if ink_share(load_image(image)) >= MIN_INK:
        ocr_page.lines.append(OcrLine(text=UNREAD_TEXT.format(page=ocr_page.page), confidence=0.0))
    return ocr_page


def is_unread(ocr_page: OcrPage) -> bool:
    marker = UNREAD_TEXT.format(page=ocr_page.page)
    return any(line.text == marker for line in ocr_page.lines)


def ink_share(image: Image.Image) -> float:
    """Share of the page that is ink, after a median filter has removed scanner specks."""
    gray = image.convert("L")
    if gray.width * gray.height > 4_000_000:
        # Ink share does not need full resolution; keeps this cheap on 600-dpi scans.
        gray = gray.reduce(2)
    pixels = np.asarray(gray.filter(ImageFilter.MedianFilter(5)), dtype=np.int16)
    paper = np.percentile(pixels, 90)
    return float(np.mean(pixels < paper - INK_DARKER_THAN_PAPER))
