"""The OCR stage: page images in, lines with a calibrated confidence out.

Two engines share one protocol: the gateway's (``MODEL_GATEWAY_URL`` set; platform rule: no
engine calls an OCR model directly once its gateway is configured) and the local RapidOCR
one. Both return :class:`OcrPage` lines whose ``confidence`` comes from
:func:`ingestion.pipeline.ocr_confidence.line_confidence`, so ``needs_review`` means the
same thing whichever engine read the page.

The engine object is built once per process (loading the ONNX models takes seconds) and
shared; the runner calls :func:`ocr_stage` and merges the blocks into the parsed document.
"""

from __future__ import annotations

import io
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from ingestion.pipeline.base import Block, BlockKind, OcrLine, OcrPage, PermanentError

QueueListener = Callable[[Any], None]

if TYPE_CHECKING:
    from PIL import Image

log = logging.getLogger(__name__)

DEFAULT_DPI = 200
# A page with this share of ink (text, not specks) but fewer characters read is "unread".
MIN_INK = 0.01
MIN_PAGE_CHARS = 40
INK_DARKER_THAN_PAPER = 50
UNREAD_TEXT = "[Halaman {page}: tulisan tidak terbaca oleh OCR]"
DEFAULT_MAX_IMAGE_PIXELS = 80_000_000
PDF_FORMATS = frozenset({"pdf"})


@dataclass(slots=True)
class PageImage:
    """One page to read: PNG/JPEG/TIFF bytes or a decoded PIL image, 1-based page number."""

    page: int
    image: bytes | Image.Image
    dpi: int = DEFAULT_DPI


@runtime_checkable
class OcrEngine(Protocol):
    """Reads page images. Implementations calibrate ``OcrLine.confidence`` with
    :func:`ingestion.pipeline.ocr_confidence.line_confidence` and mark unread pages with
    :func:`flag_unread`."""

    name: str

    # ``on_queue`` hears queue state while a remote engine waits for capacity (the GPU
    # gateway); local engines never wait and ignore it.
    def recognize(self, page: PageImage, *, on_queue: QueueListener | None = None) -> OcrPage: ...

    def recognize_many(
        self, pages: Sequence[PageImage], *, on_queue: QueueListener | None = None
    ) -> list[OcrPage]: ...


@dataclass(slots=True)
class OcrResult:
    """What the stage hands the runner: the pages read and their blocks in reading order."""

    engine: str
    pages: list[OcrPage] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    elapsed_ms: int = 0
    # Pages with visible ink but (almost) nothing read: no block can carry their low
    # confidence, so the runner must send the document to review on its own.
    unread_pages: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def min_confidence(self) -> float | None:
        if self.unread_pages:
            return 0.0
        values = [b.ocr_confidence for b in self.blocks if b.ocr_confidence is not None]
        return min(values) if values else None

    @property
    def needs_review(self) -> bool:
        """True when any page lost its text; line confidences are judged by the runner."""
        return bool(self.unread_pages)


def get_ocr_engine() -> OcrEngine:
    """The process-wide engine: the gateway when ``MODEL_GATEWAY_URL`` is set, else local."""
    from django.conf import settings

    return _engine_for(settings.MODEL_GATEWAY_URL)


_local_engines_loaded: list[str] = []


def loaded_local_ocr_engines() -> list[str]:
    """Names of the OCR engines this process has loaded itself (for the heartbeat)."""
    return list(_local_engines_loaded)


@lru_cache(maxsize=4)
def _engine_for(gateway_url: str | None) -> OcrEngine:
    # Keyed by the URL so a settings override (tests, a reconfigured process) gets the
    # right engine while the slow local model load still happens once.
    if gateway_url:
        from ingestion.pipeline.ocr_gateway import GatewayOcrEngine

        return GatewayOcrEngine()
    from ingestion.pipeline.ocr_local import LocalOcrEngine

    engine = LocalOcrEngine()
    _local_engines_loaded.append(engine.name)
    return engine


def max_image_pixels() -> int:
    try:
        from django.conf import settings

        return int(settings.INGEST_MAX_IMAGE_PIXELS)
    except Exception:  # settings not configured (bench, plain scripts)
        return DEFAULT_MAX_IMAGE_PIXELS


def load_image(page: PageImage, *, max_pixels: int | None = None) -> Image.Image:
    """Decode a page to RGB, refusing images larger than the pixel budget (zip bombs)."""
    from PIL import Image, UnidentifiedImageError

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


def render_pdf_pages(data: bytes, pages: Sequence[int], *, dpi: int) -> list[PageImage]:
    """Render the given 1-based PDF pages to PNG at ``dpi``."""
    import pymupdf

    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:
        raise PermanentError(
            "PDF rusak / tidak dapat dibaca", code="pdf_unreadable", detail=str(exc)
        ) from exc
    out = []
    with doc:
        for number in pages:
            if not 1 <= number <= doc.page_count:
                raise PermanentError(f"Halaman {number} tidak ada di PDF", code="page_out_of_range")
            pix = doc[number - 1].get_pixmap(dpi=dpi)
            out.append(PageImage(page=number, image=pix.tobytes("png"), dpi=dpi))
    return out


def image_pages(data: bytes, *, dpi: int = DEFAULT_DPI) -> list[PageImage]:
    """Every frame of an image file (multi-page TIFF) as a page."""
    from PIL import Image, ImageSequence, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(data))
        frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]
    except (UnidentifiedImageError, OSError) as exc:
        raise PermanentError(
            "Gambar rusak / tidak dapat dibaca", code="image_unreadable", detail=str(exc)
        ) from exc
    return [PageImage(page=i, image=frame, dpi=dpi) for i, frame in enumerate(frames, start=1)]


def ocr_stage(
    data: bytes,
    fmt: str,
    pages: Sequence[int] | None = None,
    *,
    engine: OcrEngine | None = None,
    dpi: int | None = None,
) -> OcrResult:
    """Read ``pages`` of a PDF (or every frame of an image) and return blocks.

    ``pages`` are 1-based and required for PDFs (the parse stage's ``ocr_pages``). Raises
    :class:`PermanentError` for unreadable input and lets the engine's
    :class:`TransientError` through for the runner's bounded retry.
    """
    started = time.monotonic()
    engine = engine or get_ocr_engine()
    dpi = dpi or _render_dpi()
    if fmt.lower() in PDF_FORMATS:
        images = render_pdf_pages(data, pages or [], dpi=dpi)
    else:
        images = image_pages(data, dpi=dpi)
        if pages:
            images = [img for img in images if img.page in set(pages)]
    ocr_pages = engine.recognize_many(images) if images else []
    blocks = [block for page in ocr_pages for block in ocr_page_to_blocks(page)]
    unread = [page.page for page in ocr_pages if is_unread(page)]
    elapsed = int((time.monotonic() - started) * 1000)
    log.info(
        "ocr: %s pages via %s in %s ms, %s blocks, unread pages %s",
        len(images),
        engine.name,
        elapsed,
        len(blocks),
        unread,
    )
    return OcrResult(
        engine=engine.name,
        pages=ocr_pages,
        blocks=blocks,
        elapsed_ms=elapsed,
        unread_pages=unread,
        warnings=[f"Halaman {n} berisi tulisan yang tidak terbaca oleh OCR" for n in unread],
    )


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
    from PIL import ImageFilter

    gray = image.convert("L")
    if gray.width * gray.height > 4_000_000:
        # Ink share does not need full resolution; keeps this cheap on 600-dpi scans.
        gray = gray.reduce(2)
    pixels = np.asarray(gray.filter(ImageFilter.MedianFilter(5)), dtype=np.int16)
    paper = np.percentile(pixels, 90)
    return float(np.mean(pixels < paper - INK_DARKER_THAN_PAPER))


def _render_dpi() -> int:
    try:
        from django.conf import settings

        return int(settings.OCR_RENDER_DPI)
    except Exception:  # settings not configured (bench, plain scripts)
        return DEFAULT_DPI


# Legal structure: headings and the starts of items that begin a new paragraph.
_HEADINGS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"^BAB\s+[IVXLC]+\b", re.IGNORECASE), 1),
    (re.compile(r"^Bagian\s+(Ke)?\w+$", re.IGNORECASE), 2),
    (re.compile(r"^Paragraf\s+\w+$", re.IGNORECASE), 3),
    (re.compile(r"^Pasal\s+\d+[A-Z]?$", re.IGNORECASE), 4),
)
_ITEM_START = re.compile(r"^(\(\d{1,3}\)|\(?[a-z]\)|[a-z]\.|\d{1,3}\.)\s")
_SENTENCE_END = (".", ":", ";")


def _heading_level(text: str) -> int:
    for pattern, level in _HEADINGS:
        if pattern.match(text):
            return level
    return 0


def ocr_page_to_blocks(ocr_page: OcrPage) -> list[Block]:
    """Group a page's lines into heading and paragraph blocks.

    A paragraph ends at a line ending a sentence or clause, and a new one starts at a legal
    heading (``BAB``, ``Bagian``, ``Paragraf``, ``Pasal``) or an item marker (``(1)``,
    ``a.``, ``1.``). A block's confidence is the minimum of its lines', so a chunk (the min
    of its blocks) is never more trusted than its weakest line.
    """
    blocks: list[Block] = []
    current: list[OcrLine] = []

    def flush() -> None:
        if current:
            blocks.append(
                Block(
                    text=_join_lines([line.text for line in current]),
                    page=ocr_page.page,
                    ocr_confidence=min(line.confidence for line in current),
                )
            )
            current.clear()

    titled: Block | None = None  # a BAB/Bagian/Paragraf heading still waiting for its title
    for line in ocr_page.lines:
        text = line.text.strip()
        if not text:
            continue
        if text == UNREAD_TEXT.format(page=ocr_page.page):
            flush()
            blocks.append(Block(text=text, page=ocr_page.page, ocr_confidence=line.confidence))
            continue
        level = _heading_level(text)
        if level:
            flush()
            heading = Block(
                text=text,
                page=ocr_page.page,
                kind=BlockKind.HEADING,
                level=level,
                ocr_confidence=line.confidence,
            )
            blocks.append(heading)
            titled = heading if level < 4 else None
            continue
        if titled is not None and _is_title(text):
            # "BAB I" / "KETENTUAN UMUM" is one heading printed on two lines.
            titled.text = f"{titled.text} {text}"
            titled.ocr_confidence = min(titled.ocr_confidence or 1.0, line.confidence)
            titled = None
            continue
        titled = None
        if _ITEM_START.match(text):
            flush()
        current.append(line)
        if text.endswith(_SENTENCE_END):
            flush()
    flush()
    return blocks


def _is_title(text: str) -> bool:
    return (
        len(text.split()) <= 10
        and not text.endswith(_SENTENCE_END)
        and not _ITEM_START.match(text)
        and text[:1].isupper()
    )


def _join_lines(lines: list[str]) -> str:
    out = ""
    for line in (line.strip() for line in lines):
        if not out:
            out = line
        elif out.endswith("-"):
            # Keep the hyphen: Indonesian breaks reduplications ("masing-/masing") far
            # more often than it hyphenates syllables in typeset legal text.
            out += line
        else:
            out += " " + line
    return out
