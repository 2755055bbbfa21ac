"""Limits and guards that run before any parsing library sees the bytes.

Hostile uploads (zip bombs, decompression-bomb images, PDFs with absurd page counts) must
fail fast with a reason a person understands, never exhaust memory. Every check here works on
metadata only: the zip central directory, an image header.
"""

from __future__ import annotations

import logging
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from django.conf import settings

from ingestion.errors import PermanentError, StageError

log = logging.getLogger(__name__)

# A member that inflates more than this many times is a bomb, not an office file. Real
# OOXML parts compress 5-30x; highly repetitive sheets reach ~100x.
MAX_ZIP_RATIO = 200
# Ratios of tiny members are meaningless (a 200-byte part can inflate 300x legitimately).
RATIO_CHECK_MIN_BYTES = 1 << 20
MAX_ZIP_MEMBERS = 20_000
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ParseLimits:
    """Caps for one parse; defaults match the settings' defaults."""

    max_pages: int = 2000
    max_uncompressed_bytes: int = 500 * 1024 * 1024
    max_image_pixels: int = 80_000_000

    @classmethod
    def from_settings(cls) -> ParseLimits:
        return cls(
            max_pages=int(settings.INGEST_MAX_PAGES),
            max_uncompressed_bytes=int(settings.INGEST_MAX_UNCOMPRESSED_BYTES),
            max_image_pixels=int(settings.INGEST_MAX_IMAGE_PIXELS),
        )


def check_zip_container(path: Path, label: str, limits: ParseLimits) -> None:
    """Reject a non-zip, an encrypted OOXML or a zip bomb before a library opens it.

    Python's zipfile stops inflating a member at its declared size, so the central
    directory's sizes are an upper bound on what the office libraries will allocate.
    """
    with path.open("rb") as fh:
        head = fh.read(8)
    if head == OLE_MAGIC:
        raise PermanentError(
            f"Berkas {label} terenkripsi / dilindungi kata sandi atau berformat lama",
            code="encrypted",
        )
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise PermanentError(f"Berkas {label} rusak", code="corrupt", detail=str(exc)) from exc
    if len(infos) > MAX_ZIP_MEMBERS:
        raise PermanentError(
            f"Berkas {label} berisi terlalu banyak bagian ({len(infos)})", code="too_large"
        )
    total = sum(info.file_size for info in infos)
    if total > limits.max_uncompressed_bytes:
        raise PermanentError(
            f"Berkas {label} terlalu besar setelah didekompresi "
            f"({total // (1024 * 1024)} MB > {limits.max_uncompressed_bytes // (1024 * 1024)} MB)",
            code="too_large",
        )
    for info in infos:
        if info.file_size < RATIO_CHECK_MIN_BYTES:
            continue
        if info.file_size > MAX_ZIP_RATIO * max(info.compress_size, 1):
            raise PermanentError(
                f"Berkas {label} mencurigakan: rasio kompresi tidak wajar (zip bomb)",
                code="zip_bomb",
                detail=info.filename,
            )


def check_image_pixels(width: int, height: int, limits: ParseLimits) -> None:
    if width <= 0 or height <= 0:
        raise PermanentError("Gambar rusak / tidak dapat dibaca", code="corrupt")
    if width * height > limits.max_image_pixels:
        raise PermanentError(
            f"Gambar terlalu besar ({width}×{height} piksel, batas "
            f"{limits.max_image_pixels} piksel)",
            code="too_large",
        )


@contextmanager
def library_guard(reason: str) -> Iterator[None]:
    """Turn any unexpected library failure into a PermanentError with ``reason``.

    Parsing libraries raise a zoo of exception types on malformed input (KeyError from
    a missing part, lxml errors, struct errors). None of those is worth a retry.
    """
    try:
        yield
    except StageError:
        raise
    except MemoryError as exc:
        raise PermanentError(f"{reason} (terlalu besar untuk diproses)", code="too_large") from exc
    except RecursionError as exc:
        raise PermanentError(f"{reason} (struktur terlalu dalam)", code="corrupt") from exc
    except Exception as exc:
        log.info("parse failed: %s: %s", type(exc).__name__, exc)
        raise PermanentError(reason, code="corrupt", detail=f"{type(exc).__name__}: {exc}") from exc
