"""Page furniture: what a printed page carries besides the regulation's text.

A folio ("- 3 -"), a running head repeated in the margins of most pages ("PRESIDEN /
REPUBLIK INDONESIA", "jdih.bapeten.go.id"), a gazette's catchword at the foot of a page
("Pasal 5 . . .") go; a sentence running over a page break is joined to the page before
(:attr:`Block.joins_previous`). The same rules apply to a PDF's text layer (the parser) and
to pages OCR read (the runner, once every page is in), so a scan reads as its PDF does.
"""

from __future__ import annotations

import re
from collections import Counter

from ingestion.legal.structure import ITEM_NUMBER
from ingestion.pipeline.base import Block
from ingestion.pipeline.reflow import join_broken, starts_item

PAGE_NUMBER_RE = re.compile(
    r"^[-–—\s]*(?:(?:halaman|hal\.?|page)\s*)?\d{1,4}(?:\s*(?:dari|of)\s*\d{1,4})?[-–—\s]*$",
    re.IGNORECASE,
)
_DIGITS_RE = re.compile(r"\d+")
RUNNING_HEAD_MAX_CHARS = 120  # headers/footers are short; body text never counts as one
MARGIN_ZONE = 0.1  # running heads and footers sit in the top or bottom tenth of the page
# A gazette's catchword: at the foot of a page, right of its middle, a few words and dots
# announcing the next page ("Pasal 5 . . .", "b. bahwa..."). Page furniture, like a folio.
CATCHWORD_RE = re.compile(r"(?:(?:\.\s?){3,}|…)\s*$")
# OCR often thins the dots ("(3) Tanda." for "(3) Tanda . . ."): such a line is a catchword
# only if the next page opens with its words (:func:`drop_echoed_catchwords`).
THIN_CATCHWORD_RE = re.compile(r"(?:\.\s?)+$|…\s*$")
CATCHWORD_MAX_WORDS = 8
# The copy stamp an official copy carries on its first page. A converter that flattens the
# page to text prints it inside a line, where it hides a list's first number from the
# grammar ("yang dimaksud dengan: SALINAN 1. Jaminan …"). Only the stamp alone on its line
# or right before an item's number goes: in capitals the word is also the regulation's own
# ("diberikan sebagai SALINAN yang sama bunyinya", UU 2/2014 Pasal 1 angka 9).
COPY_STAMP_RE = re.compile(rf"^\s*SALINAN\s*$|(?<!\S)SALINAN\s+(?=(?:{ITEM_NUMBER})(?:\s|$))")
_CLAUSE_END = (".", ";", ":")
_TRAILING_FRAGMENT_RE = re.compile(r"\w+-$")


def tidy_pages(pages: list[list[Block]]) -> int:
    """Take the furniture off ``pages`` (one list of blocks per page, in place); returns
    how many blocks went."""
    removed = 0
    for index, blocks in enumerate(pages):
        kept = without_catchword([b for b in blocks if not PAGE_NUMBER_RE.match(b.text)])
        removed += len(blocks) - len(kept)
        pages[index] = kept
    removed += drop_running_heads(pages)
    removed += drop_echoed_catchwords(pages)
    join_across_pages(pages)
    return removed


def without_copy_stamp(line: str) -> str:
    """One line of a flattened text without the copy stamp (see ``COPY_STAMP_RE``)."""
    return COPY_STAMP_RE.sub("", line) if "SALINAN" in line else line


def without_catchword(blocks: list[Block]) -> list[Block]:
    """The page without its catchword: a last line of a few words and dots, right of the
    page's middle (the next page opens with those words)."""
    if not blocks:
        return blocks
    last = blocks[-1]
    frame_width = last.frame.width if last.frame else 0.0
    right_side = last.bbox is not None and last.bbox[0] > 0.4 * frame_width
    short = len(last.text.split()) <= CATCHWORD_MAX_WORDS
    if right_side and short and CATCHWORD_RE.search(last.text):
        return blocks[:-1]
    return blocks


def drop_echoed_catchwords(pages: list[list[Block]]) -> int:
    """A catchword whose dots OCR thinned: the page's last block, a few words right of its
    middle ending in a dot, whose words are the ones the next page opens with."""
    removed = 0
    for index in range(len(pages) - 1):
        blocks = pages[index]
        opening = next((b for b in pages[index + 1] if not _in_margin(b)), None)
        if blocks and opening is not None and _echoes(blocks[-1], opening):
            pages[index] = blocks[:-1]
            removed += 1
    return removed


def _echoes(last: Block, opening: Block) -> bool:
    frame_width = last.frame.width if last.frame else 0.0
    right_side = last.bbox is not None and last.bbox[0] > 0.4 * frame_width
    if not (right_side and THIN_CATCHWORD_RE.search(last.text)):
        return False
    words = [_word_key(w) for w in last.text.rstrip(" .…").split()]
    opens = [_word_key(w) for w in opening.text.split()[: len(words)]]
    return 0 < len(words) <= CATCHWORD_MAX_WORDS and opens == words


def _word_key(word: str) -> str:
    return word.strip(".,;:").lower()


def join_across_pages(pages: list[list[Block]]) -> None:
    """A sentence running over a page break: the next page's first block goes on with the
    last one before it (``joins_previous``), and a word hyphenated there is made whole on
    the new page."""
    previous: Block | None = None
    for blocks in pages:
        body = [b for b in blocks if not _in_margin(b)]  # a page opens under its head
        if not body:
            continue
        first = body[0]
        if previous is not None and _runs_on(previous, first):
            fragment = _TRAILING_FRAGMENT_RE.search(previous.text)
            if fragment is not None:
                first.text = join_broken(fragment.group(), first.text)
                previous.text = previous.text[: fragment.start()].rstrip()
            first.joins_previous = True
        previous = body[-1]


def _runs_on(last: Block, first: Block) -> bool:
    text = first.text.lstrip()
    return (
        bool(text)
        and not last.text.rstrip().endswith(_CLAUSE_END)
        and text[0].islower()
        and not starts_item(text)
    )


def _head_key(text: str) -> str:
    return _DIGITS_RE.sub("#", text.lower())


def _edges(blocks: list[Block]) -> list[Block]:
    """The first and last two blocks of a page, each once, that sit in its margins: a
    heading ("Pasal 58") may open or close many pages too, but inside the text area."""
    edges = blocks if len(blocks) <= 4 else blocks[:2] + blocks[-2:]
    return [b for b in edges if _in_margin(b)]


def _in_margin(block: Block) -> bool:
    if block.bbox is None or block.frame is None:
        return True
    height = block.frame.height
    return block.bbox[3] <= MARGIN_ZONE * height or block.bbox[1] >= (1 - MARGIN_ZONE) * height


def drop_running_heads(pages: list[list[Block]]) -> int:
    """Remove headers/footers repeated on most pages (first/last two blocks, digits masked)."""
    counts = Counter(
        key
        for blocks in pages
        for key in {
            _head_key(b.text) for b in _edges(blocks) if len(b.text) <= RUNNING_HEAD_MAX_CHARS
        }
    )
    threshold = max(3, len([p for p in pages if p]) // 2)
    repeated = {key for key, n in counts.items() if n >= threshold}
    if not repeated:
        return 0
    removed = 0
    for index, blocks in enumerate(pages):
        drop = {id(b) for b in _edges(blocks) if _head_key(b.text) in repeated}
        if drop:
            pages[index] = [b for b in blocks if id(b) not in drop]
            removed += len(drop)
    return removed
