"""Printed lines back into paragraphs: what a PDF's justified lines and an OCR'd page lose.

A born-digital PDF gives its text line by line, and a justified line often as several
pieces (MuPDF starts a new "line" at every wide gap, so a stretched line comes out one word
per line). Read as they come, a regulation prints one word per line and no sentence can be
quoted. This module puts a page's pieces back on their printed lines (:func:`visual_lines`)
and the lines back into paragraphs (:func:`paragraphs`) from the page's geometry alone:

- a line continues the one before it when that one runs to the column's right edge (a
  justified line is full; a paragraph's last line is not), sits right below it, and starts
  where a continuation starts: at the same indent, or at an item's hanging indent;
- a line that starts left of the line before it opens a new item ("b." after the wrapped
  text of "a."), and so does a list marker after a line that ends a clause;
- a word hyphenated at the line's end is made whole again ("ke-" + "wajiban"), but a
  hyphen of the language stays ("masing-" + "masing", "Undang-" + "Undang").

Nothing here knows a regulation's grammar; the legal structure reads the paragraphs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

Box = tuple[float, float, float, float]

# A list marker opening a line: "(2)", "a.", "1.", "d1." (generic list forms, not legal).
_MARKER_RE = re.compile(r"^(?:\(\d{1,3}[a-z]?\)|[a-z]\d?\.|\d{1,3}\.)\s")
_CLAUSE_END = (".", ";", ":")
_HYPHENATED_RE = re.compile(r"(?P<head>\w+)-$")
_NEXT_WORD_RE = re.compile(r"^(?P<word>\w+)")
FULL_LINE_SLACK = 0.04  # of the column's width: a justified line ends this close to its edge
SAME_INDENT = 2.5  # points (or pixels at 72 dpi): two lines start at the same place
HANGING_INDENT_MAX = 3.5  # line heights: an item's text starts at most this far right of it
LINE_GAP_MAX = 0.9  # line heights of white between two lines of one paragraph


@dataclass(frozen=True, slots=True)
class VisualLine:
    """One printed line: its text and its box."""

    text: str
    box: Box

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


def join_broken(head: str, tail: str) -> str:
    """Two lines of one paragraph as one run of text.

    A syllable hyphen at the line's end goes ("pemba-" + "yaran" → "pembayaran"); a hyphen
    the word has in any case stays, with no space: a reduplication ("masing-" + "masing",
    "sebaik-" + "baiknya"), a capital or a digit after it ("Undang-" + "Undang", "Non-" +
    "PNS").
    """
    head, tail = head.rstrip(), tail.lstrip()
    if not head or not tail:
        return head or tail
    broken = _HYPHENATED_RE.search(head)
    if broken is None:
        return f"{head} {tail}"
    first = broken.group("head")
    nxt = _NEXT_WORD_RE.match(tail)
    if nxt is None or len(first) < 2 or not tail[0].islower():  # "e-mail", "Non-PNS"
        return head + tail
    if _reduplicates(first, nxt.group("word")):
        return head + tail
    return head[:-1] + tail


def _reduplicates(first: str, second: str) -> bool:
    """ "masing"/"masing", "sebaik"/"baiknya", "kanak"/"kanak": the second repeats the end of
    the first (three letters at least)."""
    first, second = first.lower(), second.lower()
    longest = min(len(first), len(second))
    return any(first.endswith(second[:n]) for n in range(longest, 2, -1))


def visual_lines(pieces: Sequence[tuple[Box, str]]) -> list[VisualLine]:
    """Pieces of one text block (in reading order) put back on their printed lines: pieces
    whose boxes share a baseline are one line, left to right."""
    rows: list[list[tuple[Box, str]]] = []
    for box, text in pieces:
        if not text.strip():
            continue
        row = next((r for r in reversed(rows[-3:]) if same_row(r[0][0], box)), None)
        if row is None:
            rows.append([(box, text)])
        else:
            row.append((box, text))
    lines = []
    for row in rows:
        row.sort(key=lambda piece: piece[0][0])
        text = " ".join(" ".join(t.split()) for _, t in row)
        box = (
            min(b[0] for b, _ in row),
            min(b[1] for b, _ in row),
            max(b[2] for b, _ in row),
            max(b[3] for b, _ in row),
        )
        lines.append(VisualLine(text, box))
    return lines


def same_row(a: Box, b: Box) -> bool:
    """Two boxes on one printed line: their vertical extents overlap by most of the
    smaller one."""
    overlap = min(a[3], b[3]) - max(a[1], b[1])
    return overlap > 0.6 * min(a[3] - a[1], b[3] - b[1])


def paragraphs(lines: Sequence[VisualLine]) -> list[list[VisualLine]]:
    """A page's lines (in reading order) grouped into paragraphs; see the module docstring."""
    if not lines:
        return []
    right = _right_edge(lines)
    left = min(line.box[0] for line in lines)
    slack = FULL_LINE_SLACK * max(right - left, 1.0)
    groups: list[list[VisualLine]] = [[lines[0]]]
    for line in lines[1:]:
        if continues(groups[-1][-1], line, right, slack):
            groups[-1].append(line)
        else:
            groups.append([line])
    return groups


def _right_edge(lines: Sequence[VisualLine]) -> float:
    """The column's right edge: where most full lines end (robust to a wide table row)."""
    ends = sorted(line.box[2] for line in lines)
    return ends[int(0.9 * (len(ends) - 1))] if len(ends) > 2 else ends[-1]


def continues(previous: VisualLine, line: VisualLine, right: float, slack: float) -> bool:
    """Whether ``line`` goes on with the paragraph ``previous`` ends."""
    height = max(previous.height, 1.0)
    if previous.box[2] < right - slack:
        return False  # the previous line stops short: its paragraph ended there
    gap = line.box[1] - previous.box[3]
    if gap > LINE_GAP_MAX * height or gap < -0.5 * height:
        return False
    indent = line.box[0] - previous.box[0]
    if indent < -SAME_INDENT or indent > HANGING_INDENT_MAX * height:
        return False
    return not (starts_item(line.text) and previous.text.rstrip().endswith(_CLAUSE_END))


def starts_item(text: str) -> bool:
    """Whether the text opens with a list marker ("(2) …", "a. …", "1. …")."""
    return _MARKER_RE.match(text) is not None


def paragraph_text(lines: Sequence[VisualLine]) -> str:
    text = ""
    for line in lines:
        text = join_broken(text, line.text)
    return text


def union(boxes: Sequence[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
