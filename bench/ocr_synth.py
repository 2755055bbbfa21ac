"""Synthetic scanned legal pages for the OCR benchmark: text source, rendering, degradation.

Pages are typeset with PyMuPDF from real regulation text (the GALQA Peraturan Pemerintah in
/work/shared/corpus when present, else a built-in sample), so every rendered line has known
ground truth and a known box. Degradations imitate what reaches us from JDIH scanners:
low resolution, blur, sensor noise, JPEG artefacts, faded toner, skew, salt-and-pepper
specks, ink smudges over a few lines, and pages fed upside down.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import pymupdf

GALQA_DOCS = Path("/work/shared/corpus/galqa/docs")
PAGE_W, PAGE_H, MARGIN = 595.0, 842.0, 64.0
FONTS = ("tiro", "helv", "cour")  # Times, Helvetica, Courier (typewriter-era regulations)

BUILTIN_SAMPLE = """\
PERATURAN GUBERNUR ACEH
NOMOR 12 TAHUN 2021
TENTANG
PENYELENGGARAAN ADMINISTRASI PEMERINTAHAN
BAB I
KETENTUAN UMUM
Pasal 1
Dalam Peraturan Gubernur ini yang dimaksud dengan:
1. Aceh adalah daerah provinsi yang merupakan kesatuan masyarakat hukum yang bersifat \
istimewa dan diberi kewenangan khusus untuk mengatur dan mengurus sendiri urusan \
pemerintahan dan kepentingan masyarakat setempat.
2. Pemerintah Aceh adalah unsur penyelenggara pemerintahan Aceh yang terdiri atas Gubernur \
dan perangkat Aceh.
3. Gubernur adalah kepala Pemerintah Aceh yang dipilih melalui suatu proses demokratis.
Pasal 2
(1) Penyelenggaraan administrasi pemerintahan dilaksanakan berdasarkan asas kepastian \
hukum, kemanfaatan, ketidakberpihakan, kecermatan, dan pelayanan yang baik.
(2) Ketentuan sebagaimana dimaksud pada ayat (1) berlaku bagi seluruh satuan kerja \
perangkat Aceh dan instansi vertikal sesuai dengan ketentuan peraturan perundang-undangan.
BAB II
KEWENANGAN
Pasal 3
Gubernur berwenang:
a. menetapkan kebijakan umum penyelenggaraan administrasi pemerintahan;
b. melakukan pembinaan dan pengawasan terhadap pelaksanaan tugas perangkat Aceh; dan
c. menetapkan sanksi administratif sebagaimana dimaksud dalam Pasal 2 ayat (2).
"""


@dataclass(frozen=True, slots=True)
class Degradation:
    name: str
    dpi: int = 200
    blur: float = 0.0  # gaussian sigma in pixels
    noise: float = 0.0  # gaussian noise sigma, 0..255
    jpeg: int = 0  # JPEG quality, 0 = none
    contrast: float = 1.0  # ink darkness kept (1 = black ink, 0.4 = faded)
    skew: float = 0.0  # max |rotation| in degrees
    salt_pepper: float = 0.0  # share of pixels flipped
    smudges: int = 0  # ink smudges, each covering one to three lines
    upside_down: bool = False


LEVELS: tuple[Degradation, ...] = (
    Degradation("clean"),
    Degradation("light", dpi=200, blur=0.6, noise=6, jpeg=75, contrast=0.9, skew=0.5),
    Degradation(
        "medium",
        dpi=150,
        blur=0.9,
        noise=12,
        jpeg=55,
        contrast=0.7,
        skew=1.0,
        salt_pepper=0.002,
        smudges=1,
    ),
    Degradation(
        "heavy",
        dpi=120,
        blur=1.0,
        noise=16,
        jpeg=40,
        contrast=0.65,
        skew=1.5,
        salt_pepper=0.005,
        smudges=2,
    ),
    Degradation(
        "extreme",
        dpi=100,
        blur=1.2,
        noise=20,
        jpeg=30,
        contrast=0.6,
        skew=2.0,
        salt_pepper=0.01,
        smudges=3,
    ),
)
UPSIDE_DOWN = Degradation("upside-down", dpi=200, blur=0.6, noise=6, jpeg=75, upside_down=True)


@dataclass(slots=True)
class TruthLine:
    text: str
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels, before skew


@dataclass(slots=True)
class SynthPage:
    image: np.ndarray  # BGR
    truth: list[TruthLine]
    matrix: np.ndarray  # 2x3 affine from the upright render to the degraded image
    level: str
    font: str
    extra: dict[str, float] = field(default_factory=dict)


def split_sources(root: Path = GALQA_DOCS) -> dict[str, list[str]]:
    """Paragraph lines per split: even-indexed documents tune, odd-indexed are held out."""
    files = sorted(root.glob("*.txt")) if root.is_dir() else []
    if len(files) < 2:
        half = BUILTIN_SAMPLE.splitlines()
        return {"tune": half, "report": half}
    splits: dict[str, list[str]] = {"tune": [], "report": []}
    for i, path in enumerate(files):
        lines = [clean_text(x) for x in path.read_text(encoding="utf-8").splitlines()]
        splits["tune" if i % 2 == 0 else "report"].extend(x for x in lines if x)
    return splits


def clean_text(text: str) -> str:
    # The Base-14 fonts are Latin-1; map typographic quotes and dashes, drop the rest.
    table: dict[str, str | int | None] = {"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-"}
    text = text.translate(str.maketrans(table))
    text = re.sub(r"\s+", " ", text).strip()
    # The GALQA texts were themselves OCRed and carry debris tails ("... A ag En : -4-"):
    # a run of three or more tokens of at most three characters at a paragraph's end.
    text = _DEBRIS_TAIL.sub("", text).strip()
    return text.encode("latin-1", "ignore").decode("latin-1")


_DEBRIS_TAIL = re.compile(r"(^|\s)(\S{1,3}(\s+|$)){3,}$")


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    out, current = [], ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and pymupdf.get_text_length(trial, fontname=font, fontsize=size) > width:
            out.append(current)
            current = word
        else:
            current = trial
    if current:
        out.append(current)
    return out


def compose_page(paragraphs: list[str], rng: random.Random) -> tuple[list[str], str, float]:
    """Wrap consecutive paragraphs (from a random place) into one page of lines."""
    font = rng.choice(FONTS)
    size = rng.choice((10.0, 10.5, 11.0, 12.0))
    pitch = size * 1.45
    capacity = int((PAGE_H - 2 * MARGIN) / pitch)
    start = rng.randrange(max(len(paragraphs) - 40, 1))
    lines: list[str] = []
    for paragraph in paragraphs[start:]:
        wrapped = _wrap(paragraph, font, size, PAGE_W - 2 * MARGIN)
        if len(lines) + len(wrapped) > capacity:
            break
        lines.extend(wrapped)
    return lines, font, size


def render(
    lines: list[str], font: str, size: float, dpi: int
) -> tuple[np.ndarray, list[TruthLine]]:
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE_W, height=PAGE_H)
    scale = dpi / 72.0
    pitch = size * 1.45
    truth = []
    for i, text in enumerate(lines):
        width = pymupdf.get_text_length(text, fontname=font, fontsize=size)
        # Headings are centred, like in the Lembaran Daerah.
        centred = re.match(r"^(BAB|Pasal|Bagian|Paragraf)\b", text) and width < 200
        x = (PAGE_W - width) / 2 if centred else MARGIN
        baseline = MARGIN + pitch * (i + 1)
        page.insert_text((x, baseline), text, fontname=font, fontsize=size)
        box = (x, baseline - size * 0.8, x + width, baseline + size * 0.25)
        truth.append(TruthLine(text, tuple(v * scale for v in box)))  # type: ignore[arg-type]
    pix = page.get_pixmap(dpi=dpi)
    rgb = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
    doc.close()
    return cv2.cvtColor(rgb[:, :, :3], cv2.COLOR_RGB2BGR), truth


def degrade(
    image: np.ndarray, truth: list[TruthLine], d: Degradation, rng: random.Random
) -> tuple[np.ndarray, np.ndarray]:
    """Apply ``d`` to a page; returns the image and the affine matrix of its geometry."""
    nprng = np.random.default_rng(rng.randrange(2**32))
    gray: np.ndarray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if d.contrast < 1.0:
        paper = 235.0 + 15.0 * d.contrast
        gray = paper - (paper - gray) * d.contrast
    for _ in range(d.smudges):
        gray = _smudge(gray, truth, rng)
    if d.blur:
        gray = cv2.GaussianBlur(gray, (0, 0), d.blur)
    h, w = gray.shape
    angle = rng.uniform(-d.skew, d.skew) + (180.0 if d.upside_down else 0.0)
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    if angle:
        gray = cv2.warpAffine(gray, matrix, (w, h), borderValue=245.0, flags=cv2.INTER_LINEAR)
    if d.noise:
        gray = gray + nprng.normal(0.0, d.noise, gray.shape).astype(np.float32)
    if d.salt_pepper:
        mask = nprng.random(gray.shape)
        gray[mask < d.salt_pepper / 2] = 0.0
        gray[mask > 1 - d.salt_pepper / 2] = 255.0
    out: np.ndarray = np.clip(gray, 0, 255).astype(np.uint8)
    if d.jpeg:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, d.jpeg])
        decoded = cv2.imdecode(enc, cv2.IMREAD_GRAYSCALE) if ok else None
        out = out if decoded is None else np.asarray(decoded)
    return cv2.cvtColor(out, cv2.COLOR_GRAY2BGR), matrix


def _smudge(gray: np.ndarray, truth: list[TruthLine], rng: random.Random) -> np.ndarray:
    """A grey ink/water stain over one to three lines: text under it fades into the stain."""
    if not truth:
        return gray
    first = rng.randrange(len(truth))
    last = min(first + rng.randint(0, 2), len(truth) - 1)
    covered = [t.box for t in truth[first : last + 1]]
    x0, y0 = min(b[0] for b in covered), covered[0][1]
    x1, y1 = max(b[2] for b in covered), covered[-1][3]
    cx = rng.uniform(x0, max(x1, x0 + 1))
    cy, ry = (y0 + y1) / 2, (y1 - y0) / 2 + 4
    rx = rng.uniform(0.2, 0.6) * (x1 - x0 + 1)
    stain = np.zeros_like(gray)
    cv2.ellipse(stain, (int(cx), int(cy)), (int(rx), int(ry)), 0, 0, 360, 1.0, -1)
    stain = cv2.GaussianBlur(stain, (0, 0), 6)
    darkness = rng.uniform(110, 170)
    return gray * (1 - stain) + np.minimum(gray, darkness + (gray - darkness) * 0.25) * stain


def make_page(paragraphs: list[str], d: Degradation, seed: int) -> SynthPage:
    """One page: the text depends only on ``seed``, so every level reads the same text."""
    layout_rng = random.Random(seed)
    lines, font, size = compose_page(paragraphs, layout_rng)
    image, truth = render(lines, font, size, d.dpi)
    image, matrix = degrade(image, truth, d, random.Random(f"{seed}-{d.name}"))
    return SynthPage(image=image, truth=truth, matrix=matrix, level=d.name, font=font)
