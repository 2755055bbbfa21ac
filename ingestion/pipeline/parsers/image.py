"""Images: one page that needs OCR. Only the header is read to enforce the pixel cap."""

from __future__ import annotations

import warnings
from pathlib import Path

from PIL import Image

from ingestion.errors import PermanentError
from ingestion.pipeline.base import ParsedDocument
from ingestion.pipeline.parsers.safety import ParseLimits, check_image_pixels


def parse_image(path: Path, limits: ParseLimits) -> ParsedDocument:
    try:
        with warnings.catch_warnings():
            # Pillow warns (or raises) on big images; our own cap below decides.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:  # lazy: reads the header, not the pixels
                width, height = image.size
                check_image_pixels(width, height, limits)
                image.verify()
    except PermanentError:
        raise
    except Image.DecompressionBombError as exc:
        raise PermanentError(
            "Gambar terlalu besar (dicurigai decompression bomb)", code="too_large"
        ) from exc
    except Exception as exc:
        raise PermanentError(
            "Gambar rusak / tidak dapat dibaca", code="corrupt", detail=str(exc)
        ) from exc
    return ParsedDocument(format="image", page_count=1, ocr_pages=[1])
