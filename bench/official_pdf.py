"""A regulation's text laid out as the official PDFs are, and that PDF degraded into a scan.

Used by ``bench/consolidation_e2e.py``; alone::

    .venv/bin/python bench/official_pdf.py FILE.md OUT.pdf [--scan OUT_SCAN.pdf]

The layout is the one the State Secretariat's PDFs of a UU have: an F4 page, Times at 12 pt,
lines justified edge to edge with words hyphenated at the line's end (Indonesian syllables,
"ke-wajiban"; a word with a hyphen of its own may break after it, "masing-/masing"),
headings centred (BAB, its title, Bagian, Paragraf, Pasal), numbered items (ayat "(1)",
huruf "a.", angka "1.") with a hanging indent, on every page after the first a running head
("PRESIDEN / REPUBLIK INDONESIA") and the page number ("- 3 -"), at the foot of every page
but the last the catchword announcing the next page ("Pasal 5 . . ."), and the Penjelasan
starting on a page of its own.

The scan renders each page at 200 dpi and degrades it as a JDIH scanner does (the "light"
level of ``bench/ocr_synth.py``: blur, noise, slight skew, JPEG), one image per page.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ocr_synth  # bench/ocr_synth.py, beside this file

PAGE_W, PAGE_H = 609.4, 935.4  # F4, 215 × 330 mm
LEFT, RIGHT, TOP, BOTTOM = 85.0, 57.0, 95.0, 80.0
FONT, BOLD = "tiro", "tibo"  # Times, Times Bold
_FONTS: dict[str, pymupdf.Font] = {}
SIZE = 12.0
LEADING = SIZE * 1.5
HANG = 26.0  # where an item's text starts after its marker
RUNNING_HEAD = ("PRESIDEN", "REPUBLIK INDONESIA")
SCAN = ocr_synth.LEVELS[1]  # "light": 200 dpi, blur 0.6, noise 6, JPEG 75, skew 0.5°

_CENTRED = re.compile(r"^(?:BAB\s+[IVXLC]+[A-Z]?\b|Bagian\s+Ke|Paragraf\s+\d|Pasal\s+\S+$)")
_ITEM = re.compile(r"^(?P<marker>\(\d{1,3}[a-z]?\)|[a-z]\d?\.|\d{1,3}\.)\s+(?P<rest>.*)$")
_PENJELASAN = re.compile(r"^\s*(?:PENJELASAN\b|P E N J E L A S A N)")
_VOWELS = set("aeiouAEIOU")
_DIGRAPHS = ("ng", "ny", "kh", "sy")


@dataclass
class Line:
    """One printed line: words at their x positions, on the baseline of its row."""

    words: list[tuple[float, str]]
    font: str = FONT


@dataclass
class Page:
    lines: list[Line] = field(default_factory=list)


# --- hyphenation -----------------------------------------------------------------------


def hyphen_points(word: str) -> list[int]:
    """Where an Indonesian word may break: V-CV ("ke-wa-ji-ban") and VC-CV ("pen-da-pat"),
    never inside ng/ny/kh/sy, never leaving fewer than two letters on a side."""
    if not word.isalpha() or len(word) < 5:
        return []
    points = []
    for i in range(2, len(word) - 1):
        before, here, after = word[i - 1], word[i], word[i + 1]
        if before in _VOWELS and here not in _VOWELS and after in _VOWELS:
            if word[i - 1 : i + 1].lower() not in _DIGRAPHS:
                points.append(i)
        elif before not in _VOWELS and here not in _VOWELS and after in _VOWELS:
            if word[i - 2] in _VOWELS and word[i - 1 : i + 1].lower() not in _DIGRAPHS:
                points.append(i)
    return [p for p in points if 2 <= p <= len(word) - 2]


def _font(name: str) -> pymupdf.Font:
    if name not in _FONTS:
        _FONTS[name] = pymupdf.Font(name)
    return _FONTS[name]


def _width(text: str, font: str = FONT, size: float = SIZE) -> float:
    # The font object, not the name: it measures and draws "“" and "”" as themselves.
    return float(_font(font).text_length(text, fontsize=size))


def _split_to_fit(word: str, room: float) -> tuple[str, str] | None:
    """The longest head of ``word`` that fits ``room`` with its hyphen, and the rest."""
    core = word.rstrip(".,;:)")
    if "-" in core[1:-1]:  # "masing-masing", "Undang-Undang": break after its own hyphen
        head = word.partition("-")[0]
        if _width(head + "-") <= room:
            return head + "-", word[len(head) + 1 :]
        return None
    for point in reversed(hyphen_points(core)):
        head = word[:point] + "-"
        if _width(head) <= room:
            return head, word[point:]
    return None


# --- layout ----------------------------------------------------------------------------


def _justify(words: list[str], x0: float, x1: float, last: bool) -> list[tuple[float, str]]:
    widths = [_width(w) for w in words]
    space = _width(" ")
    if last or len(words) == 1:
        gap = space
    else:
        gap = (x1 - x0 - sum(widths)) / (len(words) - 1)
    placed, x = [], x0
    for word, width in zip(words, widths, strict=True):
        placed.append((x, word))
        x += width + gap
    return placed


def _wrap(
    words: list[str], x_first: float, x_rest: float, x1: float
) -> list[list[tuple[float, str]]]:
    """Justified lines of a paragraph whose first line starts at ``x_first``."""
    lines: list[list[tuple[float, str]]] = []
    current: list[str] = []
    x0 = x_first
    queue = list(words)
    while queue:
        word = queue.pop(0)
        trial = " ".join([*current, word])
        if _width(trial) <= x1 - x0 or not current:
            current.append(word)
            continue
        room = x1 - x0 - _width(" ".join(current)) - _width(" ")
        split = _split_to_fit(word, room)
        if split is not None:
            current.append(split[0])
            queue.insert(0, split[1])
        else:
            queue.insert(0, word)
        lines.append(_justify(current, x0, x1, last=False))
        current, x0 = [], x_rest
    if current:
        lines.append(_justify(current, x0, x1, last=True))
    return lines


_HEADING_STARTS = re.compile(r" (?=(?:BAB\s+[IVXLC]+|Bagian\s+Ke\w+|Paragraf\s+\d+)\b)")


def _centred(line: str, right: float) -> list[list[tuple[float, str]]]:
    """A heading, centred, each heading the markdown ran together on a line of its own
    ("BAB XIX … Bagian Kesatu … Paragraf 1 Umum"); a long title wraps onto centred lines."""
    rows: list[list[str]] = []
    for heading in _HEADING_STARTS.split(line):
        rows.append([])
        for word in heading.split():
            if rows[-1] and _width(" ".join([*rows[-1], word]), BOLD) > right - LEFT:
                rows.append([])
            rows[-1].append(word)
    placed = []
    for row in rows:
        text = " ".join(row)
        x = (PAGE_W - _width(text, BOLD)) / 2
        words, cursor = [], x
        for word in row:
            words.append((cursor, word))
            cursor += _width(word + " ", BOLD)
        placed.append(words)
    return placed


def layout(text: str) -> list[Page]:
    """The pages of ``text`` (one paragraph a line, as the corpus markdown has it)."""
    pages = [Page()]
    right = PAGE_W - RIGHT
    rows = int((PAGE_H - TOP - BOTTOM) // LEADING)
    in_bab_title = False
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if not line:
            continue
        if _PENJELASAN.match(line) and pages[-1].lines:
            pages.append(Page())  # the Penjelasan starts on a page of its own
        centred = bool(_CENTRED.match(line)) or (in_bab_title and line.isupper())
        in_bab_title = bool(re.match(r"^BAB\s+[IVXLC]+[A-Z]?$", line))
        if centred or _PENJELASAN.match(line):
            placed = _centred(line, right)
            font = BOLD
        else:
            item = _ITEM.match(line)
            font = FONT
            if item:
                marker = item.group("marker")
                body = _wrap(item.group("rest").split(), LEFT + HANG, LEFT + HANG, right)
                placed = [[(LEFT, marker), *body[0]], *body[1:]] if body else [[(LEFT, marker)]]
            else:
                placed = _wrap(line.split(), LEFT, LEFT, right)
        for words in placed:
            if len(pages[-1].lines) >= rows:
                pages.append(Page())
            pages[-1].lines.append(Line(words, font))
    return pages


def _catchword(page: Page) -> str:
    """ "Pasal 5 . . .": the first words of the page that follows."""
    first = " ".join(word for _, word in page.lines[0].words[:3]) if page.lines else ""
    return f"{first} . . ." if first else ""


def render(text: str, out: Path) -> int:
    """Write the official-layout PDF of ``text``; returns its page count."""
    pages = layout(text)
    doc = pymupdf.open()
    for number, page in enumerate(pages, 1):
        pdf_page = doc.new_page(width=PAGE_W, height=PAGE_H)
        writer = pymupdf.TextWriter(pdf_page.rect)
        if number > 1:
            for row, head in enumerate(RUNNING_HEAD):
                x = (PAGE_W - _width(head, BOLD, 10)) / 2
                writer.append((x, 40.0 + row * 13), head, font=_font(BOLD), fontsize=10)
            folio = f"- {number} -"
            writer.append(
                ((PAGE_W - _width(folio)) / 2, 78), folio, font=_font(FONT), fontsize=SIZE
            )
        for row, line in enumerate(page.lines):
            y = TOP + LEADING * (row + 1)
            for x, word in line.words:
                writer.append((x, y), word, font=_font(line.font), fontsize=SIZE)
        if number < len(pages):
            catch = _catchword(pages[number])
            x = PAGE_W - RIGHT - _width(catch)
            writer.append((x, PAGE_H - BOTTOM + 30), catch, font=_font(FONT), fontsize=SIZE)
        writer.write_text(pdf_page)
    doc.save(out, garbage=3, deflate=True)
    doc.close()
    return len(pages)


def scan(pdf: Path, out: Path, seed: int = 33) -> int:
    """Each page of ``pdf`` as a degraded 200-dpi image in an image-only PDF."""
    rng = random.Random(seed)
    source = pymupdf.open(pdf)
    doc = pymupdf.open()
    for index in range(source.page_count):
        page = source[index]
        pix = page.get_pixmap(dpi=SCAN.dpi)
        rgb = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
        image = cv2.cvtColor(rgb[:, :, :3], cv2.COLOR_RGB2BGR)
        degraded, _ = ocr_synth.degrade(image, [], SCAN, rng)
        ok, jpeg = cv2.imencode(".jpg", degraded, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        target = doc.new_page(width=page.rect.width, height=page.rect.height)
        target.insert_image(target.rect, stream=jpeg.tobytes())
    count = len(source)
    source.close()
    doc.save(out, garbage=3, deflate=True)
    doc.close()
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--scan", type=Path)
    args = parser.parse_args()
    pages = render(args.source.read_text(encoding="utf-8"), args.out)
    print(f"{args.out}: {pages} pages")
    if args.scan:
        scan(args.out, args.scan)
        print(f"{args.scan}: scan of {pages} pages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
