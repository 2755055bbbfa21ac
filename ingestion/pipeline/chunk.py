"""Chunk stage: blocks → retrieval-sized chunks with a heading path and a page range.

Pure function, no Django. Regulations are chunked along their legal structure
(:mod:`ingestion.legal.structure`): one Pasal never shares a chunk with another, a long Pasal
splits at ayat boundaries and each piece keeps ``Pasal N`` in its path, an ayat splits only
when it alone exceeds the budget. Other text is packed paragraph by paragraph under its
headings, with a small overlap between consecutive pieces. Tables split by rows and repeat
their header row in every piece.

Token count: :func:`estimate_tokens` = ceil(whitespace words × 1.3). Indonesian words average
about 1.3-1.5 sub-word tokens in multilingual encoders; the estimate is cheap, additive over
pieces and used for every budget decision here and in ``ChunkDraft.token_count``.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable

from ingestion.legal.structure import Atom, Section, Unit, legal_sections
from ingestion.legal.units import AddressTracker, PlacedAtom, unit_spans
from ingestion.pipeline.base import Block, BlockKind, ChunkDraft

log = logging.getLogger(__name__)

SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?;:])\s+(?=[\"'(A-Z0-9])")


def words_to_tokens(words: int) -> int:
    return (words * 13 + 9) // 10


def estimate_tokens(text: str) -> int:
    """ceil(whitespace-separated words × 1.3); see the module docstring."""
    return words_to_tokens(len(text.split()))


def _max_words(budget_tokens: int) -> int:
    return max(1, budget_tokens * 10 // 13)


def _unit_words(unit: Unit) -> int:
    return sum(len(atom.text.split()) for atom in unit.atoms)


# --- generic (non-legal) sections ------------------------------------------------------


def generic_sections(blocks: list[Block]) -> list[Section]:
    """One section per heading; the heading text opens the section's first chunk."""
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    current = Section(path=[], kind="text", units=[])
    for block in blocks:
        if block.kind == BlockKind.HEADING:
            level = block.level or 1
            stack = [(lvl, text) for lvl, text in stack if lvl < level]
            stack.append((level, " ".join(block.text.split())))
            sections.append(current)
            current = Section(path=[t for _, t in stack], kind="text", units=[])
            current.units.append(Unit(None, [Atom(block.text, block.page, block.ocr_confidence)]))
        elif block.kind == BlockKind.TABLE:
            sections.append(current)
            sections.append(Section(path=list(current.path), kind="table", table=block))
            current = Section(path=list(current.path), kind="text", units=[])
        elif block.joins_previous and current.units and current.units[-1].atoms:
            # The paragraph runs on from the last page: one unit, joined with a space.
            atom = Atom(block.text, block.page, block.ocr_confidence, " ")
            current.units[-1].atoms.append(atom)
        else:
            current.units.append(Unit(None, [Atom(block.text, block.page, block.ocr_confidence)]))
    sections.append(current)
    # A section holding nothing but its own heading line adds no retrievable text.
    return [s for s in sections if s.table is not None or _has_body(s)]


def _has_body(section: Section) -> bool:
    units = [u for u in section.units if u.atoms]
    if section.kind == "text" and section.path and len(units) == 1:
        return units[0].atoms[0].text.strip() != section.path[-1]
    return bool(units)


# --- splitting oversize units ----------------------------------------------------------


def _split_atoms_at_items(unit: Unit) -> list[Unit]:
    parts: list[Unit] = []
    for atom in unit.atoms:
        if not parts or (atom.item and parts[-1].atoms):
            parts.append(Unit(unit.label or atom.item, []))
        parts[-1].atoms.append(atom)
    return parts


def _sentence_units(unit: Unit, max_words: int) -> list[Unit]:
    pieces: list[Atom] = []
    for atom in unit.atoms:
        sentences = SENTENCE_SPLIT_RE.split(atom.text)
        for index, sentence in enumerate(sentences):
            joiner = atom.joiner if index == 0 else " "
            words = sentence.split()
            for start in range(0, len(words), max_words):
                text = " ".join(words[start : start + max_words])
                item = atom.item if not pieces or pieces[-1].address != atom.address else None
                pieces.append(Atom(text, atom.page, atom.confidence, joiner, item, atom.address))
                joiner = " "
    return [Unit(unit.label, [piece]) for piece in pieces]


def split_unit(unit: Unit, max_words: int) -> list[Unit]:
    """Break a unit over the budget: at list items, then sentences, then word windows."""
    if _unit_words(unit) <= max_words:
        return [unit]
    parts = _split_atoms_at_items(unit)
    if len(parts) > 1:
        return [small for part in parts for small in split_unit(part, max_words)]
    return _sentence_units(unit, max_words)


# --- packing -----------------------------------------------------------------------------


def _render(atoms: Iterable[Atom]) -> str:
    return _render_placed(atoms)[0]


def _render_placed(atoms: Iterable[Atom]) -> tuple[str, list[PlacedAtom]]:
    """The chunk text and where each atom sits in it (for legal unit spans)."""
    out: list[str] = []
    placed: list[PlacedAtom] = []
    size = 0
    for atom in atoms:
        if out:
            out.append(atom.joiner)
            size += len(atom.joiner)
        text = atom.text
        lead = len(text) - len(text.lstrip())
        stripped = text.strip()
        if stripped:
            placed.append(
                PlacedAtom(size + lead, size + lead + len(stripped), atom.page, atom.address)
            )
        out.append(text)
        size += len(text)
    joined = "".join(out)
    shift = len(joined) - len(joined.lstrip())
    if shift:
        placed = [PlacedAtom(p.start - shift, p.end - shift, p.page, p.address) for p in placed]
    return joined.strip(), placed


def annotate_addresses(section: Section) -> None:
    """Give every atom of a Pasal its ayat/huruf/angka address (see ingestion.legal.units)."""
    if section.kind != "pasal":
        return
    for unit in section.units:
        tracker = AddressTracker(unit.label)
        for atom in unit.atoms:
            atom.address = tracker.address(atom.item)


def _draft(
    path: list[str],
    atoms: list[Atom],
    text: str | None = None,
    legal_path: list[str] | None = None,
) -> ChunkDraft:
    placed: list[PlacedAtom] = []
    if text is None:
        text, placed = _render_placed(atoms)
    confidences = [a.confidence for a in atoms if a.confidence is not None]
    return ChunkDraft(
        ordinal=0,
        text=text,
        heading_path=list(path),
        page_from=min(a.page for a in atoms),
        page_to=max(a.page for a in atoms),
        token_count=estimate_tokens(text),
        ocr_confidence=min(confidences) if confidences else None,
        units=unit_spans(legal_path, placed) if legal_path else [],
    )


def _tail(atoms: list[Atom], overlap_words: int) -> list[Atom]:
    """The last sentences (or words) of a chunk, at most ``overlap_words`` long."""
    if overlap_words <= 0 or not atoms:
        return []
    last = atoms[-1]
    sentences = SENTENCE_SPLIT_RE.split(last.text)
    picked: list[str] = []
    count = 0
    for sentence in reversed(sentences):
        size = len(sentence.split())
        if count + size > overlap_words:
            break
        picked.insert(0, sentence)
        count += size
    text = " ".join(picked) or " ".join(last.text.split()[-overlap_words:])
    return [Atom(text, last.page, last.confidence, "\n")]


def pack_section(section: Section, budget_tokens: int, overlap_tokens: int) -> list[ChunkDraft]:
    if section.table is not None:
        return table_chunks(section.table, section.path, budget_tokens)
    overlap_words = min(_max_words(overlap_tokens), _max_words(budget_tokens) // 4)
    if overlap_tokens <= 0:
        overlap_words = 0
    max_words = _max_words(budget_tokens) - overlap_words
    annotate_addresses(section)
    units = [small for unit in section.units if unit.atoms for small in split_unit(unit, max_words)]
    groups: list[list[Unit]] = []
    size = 0
    for unit in units:
        words = _unit_words(unit)
        if groups and size + words <= max_words:
            groups[-1].append(unit)
            size += words
        else:
            groups.append([unit])
            size = words
    drafts: list[ChunkDraft] = []
    previous: list[Atom] = []
    for index, group in enumerate(groups):
        atoms = [atom for unit in group for atom in unit.atoms]
        if group[0].atoms:
            group[0].atoms[0].joiner = "\n"
        # Item/ayat labels locate a piece inside a Pasal; elsewhere they would mislead.
        split = len(groups) > 1 and section.kind == "pasal"
        label = group[0].label if split else None
        path = [*section.path, label] if label else list(section.path)
        lead = _tail(previous, overlap_words) if index else []
        legal_path = section.path if section.kind == "pasal" and not lead else None
        drafts.append(_draft(path, lead + atoms, legal_path=legal_path))
        previous = atoms
    return drafts


# --- tables ------------------------------------------------------------------------------


def _row_text(row: list[str]) -> str:
    return " | ".join(cell for cell in row)


def table_chunks(block: Block, path: list[str], budget_tokens: int) -> list[ChunkDraft]:
    rows = block.rows or [[line] for line in block.text.splitlines() if line.strip()]
    if not rows:
        return []
    max_words = _max_words(budget_tokens)
    header = _row_text(rows[0])
    header_words = len(header.split())
    # A header wider than half the budget would crowd out the rows: state it once only.
    repeat = header_words <= max_words // 2
    room = max_words - header_words if repeat else max_words
    pieces: list[list[str]] = []
    size = 0
    for row in rows[1:] if repeat else rows:
        text = _row_text(row)
        words = text.split()
        for start in range(0, max(len(words), 1), room):
            part = " ".join(words[start : start + room])
            if pieces and size + len(part.split()) <= room:
                pieces[-1].append(part)
                size += len(part.split())
            else:
                pieces.append([part])
                size = len(part.split())
    if not pieces:
        pieces = [[]]
    anchor = Atom("", block.page, block.ocr_confidence)
    drafts = []
    for piece in pieces:
        lines = [header, *piece] if repeat else piece
        drafts.append(_draft(path, [anchor], "\n".join(lines).strip()))
    return drafts


# --- entry point ---------------------------------------------------------------------------


def chunk_document(
    blocks: list[Block], *, budget_tokens: int, overlap_tokens: int
) -> list[ChunkDraft]:
    """Chunks in document order, ordinals from 0. Legal chunks carry no overlap."""
    started = time.perf_counter()
    blocks = [b for b in blocks if b.text.strip() or b.rows]
    sections = legal_sections(blocks)
    legal = sections is not None
    if sections is None:
        sections = generic_sections(blocks)
    overlap = 0 if legal else overlap_tokens
    drafts = [d for s in sections for d in pack_section(s, budget_tokens, overlap) if d.text]
    for ordinal, draft in enumerate(drafts):
        draft.ordinal = ordinal
    log.info(
        "chunked blocks=%s legal=%s chunks=%s in %.1f ms",
        len(blocks),
        legal,
        len(drafts),
        (time.perf_counter() - started) * 1000,
    )
    return drafts
