"""The structure grammar of Indonesian regulations (UU, PP, Perpres, Perda, Qanun …).

One pass over the text lines finds structural markers — ``BAB``, ``Bagian``, ``Paragraf``,
``Pasal``, ayat ``(1)``, huruf ``a.``, angka ``1.``, ``PENJELASAN``, the closing
``Ditetapkan di`` and ``LAMPIRAN`` — whether they sit on their own line or inline (text
converted from PDFs often runs several headers into one line: ``… PENDAFTARAN Bagian
Kesatu Kepesertaan Pasal 4 (1) Peserta …``).

A candidate is only a marker in a header position: at the start of a line, after a
sentence end (``.;:``) or right after the title of a header it follows. That is what tells
``sebagaimana dimaksud dalam Pasal 5`` (a reference) from ``Pasal 5`` (a header).

The result is a list of :class:`Section` — one per Pasal, plus Pembukaan, PENJELASAN parts,
Penutup and LAMPIRAN — each made of :class:`Unit` (ayat or list items) the chunker must not
split unless a unit alone exceeds the budget.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from ingestion.legal.amendments.read import (
    MAX_JUMP,
    instruction_pasal,
    opens_instruction,
    restated_pasal,
)
from ingestion.legal.ocr_digits import (
    PASAL_WORD,
    pasal_number_as,
    printed_number,
    unclosed_ayat,
)
from ingestion.legal.units import Address, ayat_of, path_top
from ingestion.pipeline.base import Block, BlockKind

MARKER_RE = re.compile(
    r"""
    (?P<bab>\bBAB\s+(?P<bab_no>[IVXLCDM]+|\d+)\b)
    |(?P<bagian>\bBagian\s+(?P<bagian_no>Ke[a-z]+(?:\s+(?:Belas|Puluh(?:\s+[A-Z][a-z]+)?))?)\b)
    |(?P<paragraf>\bParagraf\s+(?P<paragraf_no>\d+|Ke[a-z]+)\b)
    |(?P<pasal>PASAL_WORD(?:\s+|(?=\d))(?P<pasal_no>(?:\d|[LlI](?=\d))\d*(?:,?4'|E[}l]|\s?[A-Z]\b)?)(?![\w'}]))
    |(?P<own_pasal>PASAL_WORD\s+(?P<own_pasal_no>II|III|IV|VI{0,3}|IX|X)(?![\w'}]))
    |(?P<penj_ayat>\bAyat\s+\((?P<penj_ayat_no>\d+[a-z]?)\))
    |(?P<ayat>\((?P<ayat_no>\d{1,3}[a-z]?)\)\.?(?=\s|$))
    |(?P<ayat_open>\((?P<ayat_open_no>\d{1,3})(?=\s+[A-Z]))
    |(?P<penj_huruf>\bHuruf\s+(?P<penj_huruf_no>[a-z])\b)
    |(?P<huruf>(?<![\w.])(?P<huruf_no>[a-z])\.(?=\s|$))
    |(?P<angka>(?<![\w.,])(?P<angka_no>\d{1,3})\.(?=\s|$))
    |(?P<penjelasan>\bP\s?E\s?N\s?J\s?E\s?L\s?A\s?S\s?A\s?N\b)
    |(?P<umum>(?:\bI\.\s+)?\bUMUM\b)
    |(?P<pdp>(?:\bII\.\s+)?\bPASAL\s+DEMI\s+PASAL\b)
    |(?P<penutup>\b(?:Ditetapkan|Disahkan)\s+di\b)
    |(?P<lampiran>\bLAMPIRAN\b(?:\s+(?P<lampiran_no>[IVXLC]+)\b)?)
    """.replace("PASAL_WORD", PASAL_WORD),
    re.VERBOSE,
)
logger = logging.getLogger(__name__)

STRUCTURAL = frozenset({"bab", "bagian", "paragraf"})
_PLAIN_PASAL_NO_RE = re.compile(r"\d+\s?[A-Z]?")
# A line ending in one of these words continues into the next: a Pasal/ayat at the start
# of the next line is then a wrapped reference, not a header.
CONNECTOR_RE = re.compile(
    r"(?:\b(?:dalam|pada|dan|atau|dengan|oleh|dimaksud|tentang|ayat|di|ke|dari|serta|"
    r"sampai|jo\.?|juncto|berdasarkan|menurut|sesuai)|,)\s*$",
    re.IGNORECASE,
)
# Before an inline "(N)" this makes it a reference ("pada ayat (2) dan (3) …"), never a header.
# At a line start only the words count: OCR leaves stray commas at line ends.
REFERENCE_BEFORE_RE = re.compile(r"(?:\b(?:ayat|dan|atau|sampai|dengan)|[,(])\s*$", re.I)
REFERENCE_WORD_BEFORE_RE = re.compile(r"\b(?:ayat|dan|atau|sampai|dengan)\s*$", re.I)
SENTENCE_END_RE = re.compile(r"[.;:]\W{0,2}\s*$")
ITEM_BEFORE_RE = re.compile(r"(?:[;:]|[;,]\s*(?:dan|atau))\s*$")
# The number an ayat, huruf or angka opens with: "(1)", "(2a)", "a.", "1.".
ITEM_NUMBER = r"\(\d{1,3}[a-z]?\)|[a-z]\.|\d{1,3}\."
MARKER_ONLY_RE = re.compile(rf"^(?:{ITEM_NUMBER})$")
TITLE_MAX_WORDS = 15
# Printed gazettes end each page with a catchword announcing the next page ("Pasal 3 . . .").
CATCHWORD_RE = re.compile(r"^\S(?:\S|\s(?!\.)){0,80}\s?(?:\.\s?){3}$|^\S.{0,80}…$|^(?:\.\s?){3,}$")
CATCHWORD_MAX_WORDS = 10
# "… berikut: “Pasal 38 A... “Pasal 38 A Pembuktian …": a catchword left inside a line,
# then the words it announced.
_REPEATED_CATCHWORD_RE = re.compile(
    r"[“\"‘’']*(?P<words>[^\s.…]\S*(?: \S+){0,4}?)(?:\.\.\.?|…)\s+(?=[“\"‘’']*(?P=words)\b)"
)
# "… perpajakan. Bunga... (2) Direktur …": a catchword whose page the conversion lost, left
# before the next unit's marker.
_STRANDED_CATCHWORD_RE = re.compile(
    r"(?<=[.;:])\s+[^\s.…]\S*(?: \S+){0,2}?(?:\.\.\.|…)"
    rf"(?=\s+(?:{ITEM_NUMBER})\s)"
)
_DOTS_RE = re.compile(r"\s?(?:(?:\.\s?){3,}|…)$")
_THIN_DOTS_RE = re.compile(r"\s?(?:\.\s?){2,}$|\s?…$")
_SENTENCE_ENDS_RE = re.compile(r"[.;:][\"”’']?(?=\s)")
_ITEM_NUMBER_RE = re.compile(r"(?:^|\s)(?:\d{1,3}|[a-z]|\(\d{1,3}[a-z]?\))$")


@dataclass(slots=True)
class Atom:
    """A run of text from one line; ``joiner`` is how it attaches to the atom before it."""

    text: str
    page: int
    confidence: float | None
    joiner: str = "\n"
    item: str | None = None  # "huruf a" / "angka 3" when this atom starts a list item
    address: Address = ()  # its ayat/huruf/angka inside a Pasal (ingestion.legal.units)


@dataclass(slots=True)
class Unit:
    label: str | None
    atoms: list[Atom] = field(default_factory=list)


@dataclass(slots=True)
class Section:
    path: list[str]
    kind: str
    units: list[Unit] = field(default_factory=list)
    table: Block | None = None
    continued: bool = False  # reopened after a table: the same part goes on

    def has_text(self) -> bool:
        return self.table is not None or any(u.atoms for u in self.units)


def _kind(match: re.Match[str]) -> str:
    return match.lastgroup or ""


def _starts_lower(text: str) -> bool:
    stripped = text.lstrip()
    return bool(stripped) and (stripped[0].islower() or stripped[0] in ",)/")


class LegalBuilder:
    """Consumes blocks line by line and builds sections; see the module docstring."""

    def __init__(self) -> None:
        self.sections: list[Section] = []
        self.bab: str | None = None
        self.bagian: str | None = None
        self.paragraf: str | None = None
        self.lampiran: str | None = None
        self.penjelasan = False
        self.pasal_count = 0
        self.title_target: str | None = None
        self.top_item: str | None = None
        self.prev_line = ""
        self.continuing = False  # the line goes on with the sentence the last one left open
        # The ayat numbers of the current Pasal while a line's markers are being accepted.
        self.line_ayats: list[str] | None = None
        # An amending regulation's instructions: the section holding them (its Pasal I, or
        # an omnibus law's Pasal 81), the headers in force there, the last number read.
        self.instructions: Section | None = None
        self.instruction_headers: tuple[str | None, str | None, str | None] = (None, None, None)
        self.instruction_no = 0
        # The Pasal the last instruction restates, until its wording starts: printed without
        # its heading, the wording is still that Pasal's (a unit search can cite).
        self.restating: str | None = None
        self.heading_line = False  # the line being read is a heading block's
        # The Pasal the last instruction names: a restated heading OCR damaged ("Pasal 278"
        # under "… yakni Pasal 27A dan Pasal 27B") takes the name it stands for.
        self.named: frozenset[str] = frozenset()

    # -- structure state -----------------------------------------------------------------

    def _prefix(self) -> list[str]:
        if self.penjelasan:
            return ["PENJELASAN"]
        head = [self.lampiran] if self.lampiran else []
        return head + [p for p in (self.bab, self.bagian, self.paragraf) if p]

    def _open(self, path: list[str], kind: str) -> Section:
        section = Section(path=path, kind=kind, units=[Unit(None)])
        self.sections.append(section)
        self.top_item = None
        return section

    def _current(self) -> Section:
        if not self.sections:
            self._open(["Pembukaan"], "pembukaan")
        return self.sections[-1]

    def _add_atom(self, atom: Atom) -> None:
        unit = self._current().units[-1]
        if unit.atoms and MARKER_ONLY_RE.match(unit.atoms[-1].text):
            atom.joiner = " "
        unit.atoms.append(atom)

    # -- candidate validation ------------------------------------------------------------

    def _accept(self, kind: str, line: str, match: re.Match[str], prev: tuple[str, int]) -> bool:
        before, after = line[: match.start()], line[match.end() :]
        at_start = not before.strip()
        prev_kind, prev_end = prev
        gap = line[prev_end : match.start()] if prev_kind else None
        title_gap = (
            gap is not None
            and prev_kind in STRUCTURAL
            and not re.search(r"[.;:]", gap)
            and len(gap.split()) <= TITLE_MAX_WORDS
        )
        glued = (
            gap is not None
            and not gap.strip()
            and prev_kind in {"pasal", "penj_ayat", "pdp", "umum"}
        )
        inline_ok = bool(SENTENCE_END_RE.search(before)) or title_gap or glued
        # A heading line (markdown "## Pasal 34B") is never a reference wrapped from the last.
        wrapped = (
            at_start
            and not self.heading_line
            and (self.continuing or bool(CONNECTOR_RE.search(self.prev_line)))
        )
        if kind in STRUCTURAL:
            return ((at_start and not wrapped) or inline_ok) and not _starts_lower(after)
        if kind == "pasal":
            if _starts_lower(after) or self._pasal_number(match) is None:
                return False
            return (at_start and not wrapped) or inline_ok
        if kind == "own_pasal":
            # An amending regulation's own Pasal II, III …, after its Pasal I of instructions
            # (Pasal I itself holds the instructions and stays where they are read).
            return self.instructions is not None and at_start and not _starts_lower(after)
        if kind == "ayat":
            # At a line start only a wrapped "… pada ayat" / "(1)" reference is rejected;
            # inline, the ayat text must also start like a sentence.
            if not self.pasal_count:
                return False
            if (at_start and not wrapped) or (inline_ok and not _starts_lower(after)):
                return True
            return self._next_ayat(match.group("ayat_no"), before, after)
        if kind == "ayat_open":
            # OCR drops the closing parenthesis ("(3 Dalam hal …") or reads it as a 1
            # ("(31 Dalam hal …"): only the next ayat.
            return self._next_ayat(self._ayat_number(kind, match), before, after)
        if kind in {"penj_ayat", "penj_huruf"}:
            return self.penjelasan and (at_start or inline_ok)
        if kind == "huruf":
            return at_start or bool(ITEM_BEFORE_RE.search(before))
        if kind == "angka":
            starts_upper = after.strip()[:1].isupper()
            return at_start or (bool(SENTENCE_END_RE.search(before)) and starts_upper)
        if kind == "penjelasan":
            return bool(self.pasal_count) and (
                after.lstrip().startswith("ATAS") or (at_start and not after.strip())
            )
        if kind in {"umum", "pdp"}:
            numbered = match.group(0).startswith("I")
            return self.penjelasan and (numbered or (at_start and not after.strip()))
        if kind == "penutup":
            return bool(self.pasal_count) and (at_start or inline_ok)
        if kind == "lampiran":
            return bool(self.pasal_count) and at_start and not _starts_lower(after)
        return False

    def _expected_ayat(self) -> int | None:
        """The number that continues the current Pasal's ayat sequence."""
        if self.line_ayats is not None:  # markers accepted earlier on this line count first
            numbers: list[str | None] = list(self.line_ayats)
        else:
            numbers = [ayat_of(u.label) for u in self._current().units]
        last = next((n for n in reversed(numbers) if n is not None), None)
        return int(last) + 1 if last is not None and last.isdigit() else None

    def _ayat_number(self, kind: str, match: re.Match[str]) -> str:
        number = match.group(f"{kind}_no")
        return unclosed_ayat(number, self._expected_ayat()) if kind == "ayat_open" else number

    def _next_ayat(self, number: str, before: str, after: str) -> bool:
        """OCR runs ayat into the line before or after noise ("… Desa. y (5) Pemberian …"):
        the number that continues the current Pasal's ayat sequence, followed by a capital,
        is a header wherever it sits, unless the words before make it a reference."""
        if self._current().kind != "pasal" or not number.isdigit():
            return False
        if int(number) != self._expected_ayat():
            return False
        if before.strip():
            reference = REFERENCE_BEFORE_RE.search(before)
        else:
            reference = REFERENCE_WORD_BEFORE_RE.search(self.prev_line)
        return after.strip()[:1].isupper() and not reference

    def _markers(self, line: str) -> list[re.Match[str]]:
        accepted: list[re.Match[str]] = []
        prev: tuple[str, int] = ("", 0)
        self.line_ayats = None
        for match in MARKER_RE.finditer(line):
            kind = _kind(match)
            if self._accept(kind, line, match, prev):
                accepted.append(match)
                prev = (kind, match.end())
                self._track_line_ayat(kind, match)
        self.line_ayats = None
        return accepted

    def _track_line_ayat(self, kind: str, match: re.Match[str]) -> None:
        if kind == "pasal":
            self.line_ayats = []
        elif kind in {"ayat", "ayat_open"}:
            if self.line_ayats is None:
                units = self._current().units
                self.line_ayats = [n for n in (ayat_of(u.label) for u in units) if n]
            self.line_ayats.append(self._ayat_number(kind, match))

    # -- marker handling -----------------------------------------------------------------

    def _header(self, kind: str, match: re.Match[str], rest: str) -> str:
        """Set a BAB/Bagian/Paragraf; returns the part of ``rest`` that is not its title."""
        words = rest.split()
        if kind == "bab":
            title_words = []
            for word in words:
                if any(ch.islower() for ch in word):
                    break
                title_words.append(word)
        else:
            has_stop = re.search(r"[.;:]", rest)
            title_words = words if len(words) <= TITLE_MAX_WORDS and not has_stop else []
        label = " ".join([match.group(0).split()[0], match.group(f"{kind}_no"), *title_words])
        label = " ".join(label.split())
        if kind == "bab":
            self.bab, self.bagian, self.paragraf = label, None, None
        elif kind == "bagian":
            self.bagian, self.paragraf = label, None
        else:
            self.paragraf = label
        # A BAB title may wrap onto following upper-case lines even when it began inline.
        self.title_target = kind if kind == "bab" or not title_words else None
        self._open(self._prefix(), kind)
        return " ".join(words[len(title_words) :])

    def _absorb_title(self, text: str) -> bool:
        target = self.title_target
        if target is None:
            return False
        words = text.split()
        current = {"bab": self.bab, "bagian": self.bagian, "paragraf": self.paragraf}[target]
        fits = 0 < len(words) <= TITLE_MAX_WORDS and current is not None
        if target == "bab":
            fits = fits and not any(ch.islower() for ch in text)
        else:
            fits = fits and text[:1].isupper() and not re.search(r"[.;:]$", text)
            self.title_target = None  # Bagian/Paragraf titles are one line
        if not fits or current is None:
            self.title_target = None
            return False
        label = f"{current} {' '.join(words)}"
        if target == "bab":
            self.bab = label
        elif target == "bagian":
            self.bagian = label
        else:
            self.paragraf = label
        self.sections[-1].path = self._prefix()
        return True

    def _item(self, kind: str, match: re.Match[str], atom: Atom) -> None:
        label = f"huruf {match.group(kind + '_no')}" if "huruf" in kind else None
        label = label or f"angka {match.group('angka_no')}"
        atom.item = label
        section = self._current()
        in_pasal = section.kind == "pasal"
        no_ayat = all(u.label is None or not u.label.startswith("ayat") for u in section.units)
        item_type = label.split()[0]
        if in_pasal and no_ayat and self.top_item in (None, item_type):
            self.top_item = item_type
            section.units.append(Unit(label, [atom]))
            return
        self._add_atom(atom)

    def _marker(self, kind: str, match: re.Match[str], text: str, atom: Atom) -> None:
        if kind in STRUCTURAL:
            rest = self._header(kind, match, text[match.end() - match.start() :])
            if rest:
                self._add_atom(Atom(rest, atom.page, atom.confidence, atom.joiner))
            return
        self.title_target = None
        if kind in {"pasal", "own_pasal"}:
            self.restating = None  # the restated Pasal has its heading
            self.pasal_count += 1
            if kind == "own_pasal":
                number = match.group("own_pasal_no")
                if not self.penjelasan:  # outside the amended regulation's chapters
                    self.bab = self.bagian = self.paragraf = None
            else:
                number = self._pasal_number(match)
            self._open([*self._prefix(), f"Pasal {number}"], "pasal")
            self._add_atom(atom)
        elif kind in {"ayat", "penj_ayat", "ayat_open"}:
            number = self._ayat_number(kind, match)
            section = self._current()
            if section.kind == "pasal":
                section.units.append(Unit(f"ayat ({number})", [atom]))
            else:
                self._add_atom(atom)
        elif kind in {"huruf", "angka", "penj_huruf"}:
            if kind == "angka" and self._is_instruction(match, text):
                self._return_to_instructions(int(match.group("angka_no")))
                self._item(kind, match, atom)
                instruction = text[match.end() - match.start() :]
                self.restating = restated_pasal(instruction)
                self.named = instruction_pasal(instruction)
                return
            self._item(kind, match, atom)
        elif kind == "penjelasan":
            self.penjelasan = True
            self.bab = self.bagian = self.paragraf = self.lampiran = None
            self._open(["PENJELASAN"], "penjelasan")
            self._add_atom(atom)
        elif kind == "umum":
            self._open(["PENJELASAN", "Umum"], "penjelasan")
            self._add_atom(atom)
        elif kind == "pdp":
            self._open(["PENJELASAN"], "penjelasan")
        elif kind == "penutup":
            self.bab = self.bagian = self.paragraf = None
            self._open(["Penutup"], "penutup")
            self._add_atom(atom)
        elif kind == "lampiran":
            self.penjelasan = False
            self.bab = self.bagian = self.paragraf = None
            number = match.group("lampiran_no")
            self.lampiran = f"LAMPIRAN {number}" if number else "LAMPIRAN"
            self._open([self.lampiran], "lampiran")
            self._add_atom(atom)

    # -- amending instructions ----------------------------------------------------------

    def _is_instruction(self, match: re.Match[str], text: str) -> bool:
        """An amending regulation's next numbered instruction ("60. Ketentuan Pasal 57
        diubah …"): it opens as the instruction reader knows instructions open, and its
        number follows the last instruction's (OCR may lose a few)."""
        if self.penjelasan or self.lampiran:
            return False
        step = int(match.group("angka_no")) - self.instruction_no
        rest = text[match.end() - match.start() :]
        return 0 < step <= MAX_JUMP and opens_instruction(rest)

    def _return_to_instructions(self, number: int) -> None:
        """An instruction ends the Pasal restated before it: its text goes back to the
        section that holds the instructions, never into the restated Pasal as an angka."""
        section = self._current()
        home = self.instructions or self._first_home(section, number)
        if home is section:
            self.instructions = section
            self.instruction_headers = (self.bab, self.bagian, self.paragraf)
        else:
            self.bab, self.bagian, self.paragraf = self.instruction_headers
            self.instructions = self._open(list(home.path), home.kind)
        self.instruction_no = number

    def _pasal_number(self, match: re.Match[str]) -> str | None:
        """A heading's number: as printed ("12 A" as older laws print it is 12A), or the
        Pasal the instruction names that an OCR-damaged number stands for; None when a
        damaged number ("L6A") stands for none of them."""
        raw = match.group("pasal_no").replace(" ", "")
        mapped = pasal_number_as(raw, self.named) if self.instructions else None
        if mapped is not None:
            return mapped
        if self.instructions and (printed := printed_number(raw)):
            return printed
        return raw if _PLAIN_PASAL_NO_RE.fullmatch(raw) else None

    def _open_restated(self, line: str, markers: list[re.Match[str]]) -> None:
        """The first line after an instruction that restates one Pasal: unless the line is
        that Pasal's heading, the wording starts here without it."""
        number, self.restating = self.restating, None
        if markers and markers[0].start() == 0 and _kind(markers[0]) in ("pasal", "bab"):
            return
        self.pasal_count += 1
        self._open([*self._prefix(), f"Pasal {number}"], "pasal")

    def _first_home(self, section: Section, number: int) -> Section:
        """Where the instructions stand: the section of instruction 1 (an omnibus law's
        Pasal 81, or the Pembukaan that holds an unread "Pasal I"). When OCR lost the first
        numbers, the section at hand is a restated Pasal, so the Pembukaan is."""
        if number == 1 or section.kind != "pasal":
            return section
        return next((s for s in self.sections if s.kind == "pembukaan"), section)

    # -- input ---------------------------------------------------------------------------

    def add_line(
        self,
        line: str,
        page: int,
        confidence: float | None,
        *,
        continues: bool = False,
        heading: bool = False,
    ) -> None:
        """Read one line; ``continues``: it goes on with the last line's sentence (a
        paragraph running over a page break), so it joins it with a space; ``heading``: the
        document marks it a heading."""
        self.continuing, self.heading_line = continues, heading
        markers = self._markers(line)
        self.continuing = self.heading_line = False
        if self.restating is not None and not continues:
            self._open_restated(line, markers)
        cuts = [m.start() for m in markers]
        if not cuts or cuts[0] > 0:
            head = line[: cuts[0] if cuts else len(line)].strip()
            if head and not self._absorb_title(head):
                self._add_atom(Atom(head, page, confidence, " " if continues else "\n"))
        for index, match in enumerate(markers):
            end = cuts[index + 1] if index + 1 < len(cuts) else len(line)
            text = line[match.start() : end].strip()
            joiner = "\n" if match.start() == 0 or not line[: match.start()].strip() else " "
            self._marker(_kind(match), match, text, Atom(text, page, confidence, joiner))
        self.prev_line = line

    def add_table(self, block: Block) -> None:
        path = list(self._current().path)
        self.sections.append(Section(path=path, kind="table", table=block))
        # Text after a table continues the section it interrupted.
        self._open(path, self.sections[-2].kind).continued = True


def without_catchword(line: str) -> str:
    """The line without a gazette's catchword: "" when the line is one ("Pasal 3 . . .",
    "(2) Bagi pegawai negeri..."), the text before it when a conversion ran the catchword
    onto a line of text ("… diatur oleh Menteri. Bagian…")."""
    if ".." in line or "…" in line:  # OCR reads ". . ." as ".." too
        line = _STRANDED_CATCHWORD_RE.sub("", _REPEATED_CATCHWORD_RE.sub("", line))
    dots = _DOTS_RE.search(line)
    if dots is None:
        return line
    # The last sentence end past the line's first word (an item's "a." or "(2)" is not one).
    ends = [
        m.end()
        for m in _SENTENCE_ENDS_RE.finditer(line, len(line.split()[0]), dots.start())
        if not _ITEM_NUMBER_RE.search(line, 0, m.start())  # "… berbunyi.” 3. Di antara…"
    ]
    if ends and len(line[ends[-1] : dots.start()].split()) <= CATCHWORD_MAX_WORDS // 2:
        return line[: ends[-1]]
    if len(line.split()) <= CATCHWORD_MAX_WORDS and CATCHWORD_RE.match(line):
        return ""
    return line


def echoed_catchword(line: str, following: str) -> bool:
    """A line of a few words and two dots or more ("(2) Penyampaian..", OCR thins ". . .")
    whose words open the next line: a catchword the conversion left beside its page's text."""
    dots = _THIN_DOTS_RE.search(line)
    words = line[: dots.start()].split() if dots else []
    return 0 < len(words) <= CATCHWORD_MAX_WORDS and following.split()[: len(words)] == words


def _lines(blocks: list[Block]) -> list[tuple[Block, str, bool]]:
    """Each block's lines without catchwords, with whether the line runs on from the last
    one; a table is one entry with no text."""
    lines: list[tuple[Block, str, bool]] = []
    for block in blocks:
        if block.kind == BlockKind.TABLE:
            lines.append((block, "", False))
            continue
        continues = block.joins_previous
        for raw in block.text.splitlines():
            line = without_catchword(raw.strip())
            if line:
                lines.append((block, line, continues))
                continues = False
    return [
        entry
        for index, entry in enumerate(lines)
        if index + 1 == len(lines) or not echoed_catchword(entry[1], lines[index + 1][1])
    ]


def legal_sections(blocks: list[Block]) -> list[Section] | None:
    """Sections of a regulation, or None when the text does not look like one."""
    builder = LegalBuilder()
    for block, line, continues in _lines(blocks):
        if block.kind == BlockKind.TABLE:
            builder.add_table(block)
        else:
            heading = block.kind == BlockKind.HEADING
            builder.add_line(
                line, block.page, block.ocr_confidence, continues=continues, heading=heading
            )
    if builder.pasal_count < 2:
        return None
    if builder.instructions is None:  # an amending law restates Pasal out of order
        body = [s for s in builder.sections if s.kind == "pasal" and _in_body(s)]
        _mend_numbering(body)
    return [s for s in builder.sections if s.has_text()]


def _mend_numbering(pasals: list[Section]) -> None:
    """A heading OCR misread out of its sequence takes the number between its neighbours:
    "Pasal 25, Pasal 16, Pasal 27" → 26; "Pasal 44, Pasal 46, Pasal 46" → 45 (the scan of
    UU 10/1995 prints both). A Pasal a table interrupts is one Pasal in several sections."""
    runs: list[list[Section]] = []
    for section in pasals:
        if runs and section.continued and runs[-1][0].path == section.path:
            runs[-1].append(section)
        else:
            runs.append([section])
    numbers = [_plain_number(run[0]) for run in runs]
    for index in range(1, len(runs) - 1):
        before, here, after = numbers[index - 1], numbers[index], numbers[index + 1]
        if before is None or here is None or after is None or here == before + 1:
            continue
        if after == before + 2:
            _renumber(runs[index], str(before + 1))
            numbers[index] = before + 1


def _in_body(section: Section) -> bool:
    return not section.path or not path_top(section.path[0])


def _plain_number(section: Section) -> int | None:
    match = re.fullmatch(r"Pasal (\d+)", section.path[-1]) if section.path else None
    return int(match.group(1)) if match else None


def _renumber(run: list[Section], number: str) -> None:
    old = run[0].path[-1]
    for section in run:
        section.path = [*section.path[:-1], f"Pasal {number}"]
    first = next((u.atoms[0] for u in run[0].units if u.atoms), None)
    if first is not None:
        first.text = re.sub(rf"^{PASAL_WORD}\s+\d+", f"Pasal {number}", first.text, count=1)
    logger.info("structure: heading %s read as Pasal %s (its neighbours' sequence)", old, number)
