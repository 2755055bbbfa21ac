"""Amendments and repeals a regulation states about other regulations, in its own text.

Pure Python. The input is the regulation as chunked (:class:`SectionText`: heading path,
text, first page); the output is a list of :class:`FoundRelation`. Only these places are
read, because only there does a regulation speak about its own effect:

- its **title** (its heading, :func:`ingestion.legal.identity.heading_of`) and its
  **Menetapkan** line:
  ``Perubahan [Kedua|Ketiga …] atas <regulation>`` → ``amends``;
  ``Pencabutan <regulation>`` → ``repeals``;
- its **amending articles**: ``Beberapa ketentuan dalam <regulation> … diubah`` and the
  omnibus ``… ini mengubah … beberapa ketentuan yang diatur dalam: a. <regulation> …``
  → ``amends``;
- its **Ketentuan Penutup** (the BAB of that name; without one, the last Pasal of the
  body): ``<regulation> … dicabut [dan dinyatakan tidak berlaku]``, ``… dinyatakan tidak
  berlaku`` and ``Dengan/Pada saat berlakunya …, maka <regulation> … dicabut`` → ``repeals``.

*Menimbang*, *Mengingat*, the elucidation and annexes are never read. Precision comes
first (a wrong repeal hides a law in force), so within a clause only the **head** mentions
count: a regulation named inside another one's title (``UU 28/2000 tentang Penetapan
Perppu 3/2000 …``), after ``sebagaimana telah diubah dengan``, or qualified as a part
(``Pasal 5 Peraturan Daerah …``, ``peraturan pelaksanaan dari …``, ``… sepanjang …``) is
not a target. Verbs that report someone else's act (``yang telah dicabut``, ``dicabut
dengan …``) are not read as this regulation's decision.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ingestion.legal.citation import RegulationRef, canonical_jenis, find_regulations, title_after
from ingestion.legal.identity import heading_of
from ingestion.legal.units import path_top

AMENDS = "amends"
REPEALS = "repeals"

TITLE = "title"
MENETAPKAN = "menetapkan"
BODY = "body"
PENUTUP = "penutup"

EVIDENCE_MAX_CHARS = 1200
# Without a "Ketentuan Penutup" BAB, the closing provisions are the last Pasal of the body.
CLOSING_PASALS_WITHOUT_BAB = 3
LOCAL_JENIS = frozenset(
    {
        "Peraturan Daerah",
        "Qanun",
        "Peraturan Gubernur",
        "Keputusan Gubernur",
        "Instruksi Gubernur",
        "Peraturan Bupati",
        "Keputusan Bupati",
        "Peraturan Wali Kota",
        "Keputusan Wali Kota",
    }
)
_LEGISLATIVE_LOCAL = frozenset({"Peraturan Daerah", "Qanun"})


@dataclass(frozen=True, slots=True)
class SectionText:
    """One chunk of the regulation as stored: its heading path, text and first page."""

    path: str
    text: str
    page: int = 1


@dataclass(frozen=True, slots=True)
class FoundRelation:
    kind: str
    target: RegulationRef
    title: str | None
    part: str
    evidence: str
    span: tuple[int, int]  # the target's mention inside ``evidence``
    page: int | None

    @property
    def citation(self) -> str:
        return self.target.short or ""


@dataclass(slots=True)
class Part:
    """Flattened text of one place in the regulation, with the page of each stretch."""

    name: str
    text: str
    pages: list[tuple[int, int]]  # (offset, page), ascending

    def page_at(self, offset: int) -> int | None:
        page = None
        for start, number in self.pages:
            if start > offset:
                break
            page = number
        return page


@dataclass(frozen=True, slots=True)
class Mention:
    ref: RegulationRef
    start: int
    end: int


# --- text preparation ----------------------------------------------------------------


def flatten(text: str) -> str:
    """One line: hyphenated line breaks joined ("Undang-\\nUndang"), whitespace collapsed."""
    text = re.sub(r"(?<=\w)-\s*\n\s*(?=\w)", "-", text)
    return " ".join(text.split())


def _part(name: str, sections: Sequence[SectionText]) -> Part:
    pieces: list[str] = []
    pages: list[tuple[int, int]] = []
    offset = 0
    for section in sections:
        # The "Pasal 5" header is structure, not text: it would read as "a part of".
        flat = _PASAL_HEADER_RE.sub("", flatten(section.text))
        if not flat:
            continue
        pages.append((offset, section.page))
        pieces.append(flat)
        offset += len(flat) + 1
    return Part(name, " ".join(pieces), pages)


_PATH_SEP = " › "
_PASAL_HEADER_RE = re.compile(r"^Pasal\s+\d+[A-Z]?\s+")
_PASAL_RE = re.compile(r"^Pasal\s+\w+$")
_PENUTUP_BAB_RE = re.compile(r"^BAB\b.*\bPENUTUP\b", re.IGNORECASE)
_MENETAPKAN_RE = re.compile(r"\bMenetapkan\s*:\s*", re.IGNORECASE)
_MENETAPKAN_END_RE = re.compile(r"\b(?:BAB\s+I|Pasal\s+(?:1|I))\b")


def _pasal_key(path: str) -> str | None:
    """The heading path up to its Pasal ("BAB XVIII … › Pasal 192"), or None outside one."""
    parts = path.split(_PATH_SEP)
    for index, part in enumerate(parts):
        if _PASAL_RE.match(part):
            return _PATH_SEP.join(parts[: index + 1])
    return None


def _is_body(path: str) -> bool:
    return not path_top(path)


def _pasals(sections: Sequence[SectionText]) -> list[list[SectionText]]:
    """The body's Pasal, each with its chunks in order (a long Pasal spans several)."""
    groups: dict[str, list[SectionText]] = {}
    for section in sections:
        key = _pasal_key(section.path)
        if key is not None and _is_body(section.path):
            groups.setdefault(key, []).append(section)
    return list(groups.values())


def _opening(sections: Sequence[SectionText]) -> list[SectionText]:
    opening: list[SectionText] = []
    for section in sections:
        if _pasal_key(section.path) is not None or not _is_body(section.path):
            break
        if section.path.split(_PATH_SEP, 1)[0] in ("Pembukaan", ""):
            opening.append(section)
    return opening


def regulation_parts(document_title: str, sections: Sequence[SectionText]) -> list[Part]:
    """The title, Menetapkan, amending Pasal and closing Pasal of a chunked regulation."""
    opening = _part("opening", _opening(sections))
    parts: list[Part] = []
    # The heading as read through OCR damage ("PERUBAHAN ATAS … TAHUN 2OO4").
    heading = heading_of(opening.text)
    if heading.ended and heading.text:
        parts.append(Part(TITLE, heading.text, opening.pages))
    else:
        # No preamble to stop at (a bare text): the stored title and the first lines,
        # where a regulation prints its name.
        parts.append(Part(TITLE, f"{flatten(document_title)} {heading.text}".strip(), [(0, 1)]))
    decided = _MENETAPKAN_RE.search(opening.text)
    if decided is not None:
        rest = opening.text[decided.end() :]
        stop = _MENETAPKAN_END_RE.search(rest)
        text = rest[: stop.start()] if stop else rest
        offset = decided.end()
        pages = [(max(0, start - offset), page) for start, page in opening.pages]
        parts.append(Part(MENETAPKAN, text, pages))
    pasals = _pasals(sections)
    parts.extend(_part(BODY, group) for group in pasals)
    closing = [g for g in pasals if _PENUTUP_BAB_RE.match(g[0].path.split(_PATH_SEP, 1)[0])]
    has_bab = any(g[0].path.upper().startswith("BAB") for g in pasals)
    if not closing and not has_bab:
        closing = pasals[-CLOSING_PASALS_WITHOUT_BAB:]
    parts.extend(_part(PENUTUP, group) for group in closing)
    return parts


# --- mentions and heads --------------------------------------------------------------

_LIST_MARKER_RE = re.compile(r"(?:^|\s)(?:\d{1,3}|[a-z])\.\s")
_NESTED_RE = re.compile(r"^\s*,?\s*tentang\b", re.IGNORECASE)
_SIBLING_END_RE = re.compile(r"(?:\bdan|\bserta|,)\s*$", re.IGNORECASE)
# "… sebagaimana telah diubah dengan", "… terakhir diubah dengan", "… ditetapkan menjadi
# Undang-Undang dengan", "… yang telah dicabut oleh": the regulation that follows is a
# statement about the previous one, not this regulation's target.
_AS_AMENDED_RE = re.compile(
    r"\b(?:diubah|diganti|dicabut|ditetapkan|terakhir)\b[^;()]{0,60}?\b(?:dengan|oleh)\s*$",
    re.IGNORECASE,
)
_PARTIAL_RE = re.compile(
    r"\b(?:pasal|ayat|huruf|angka|bab|bagian|paragraf|lampiran|ketentuan|pelaksanaan|"
    r"sebagian)\b",
    re.IGNORECASE,
)
_ITEM_START_RE = re.compile(r"[;:,]|\bmaka\b", re.IGNORECASE)


def mentions(text: str) -> list[Mention]:
    return [Mention(ref, start, end) for ref, (start, end) in find_regulations(text)]


def heads(text: str, found: Sequence[Mention]) -> list[Mention]:
    """The mentions a clause is about: not inside a title, not "sebagaimana telah diubah"."""
    result: list[Mention] = []
    previous: Mention | None = None
    previous_excluded = False
    for mention in found:
        before = text[previous.end if previous else 0 : mention.start]
        nested = (
            previous is not None
            and _NESTED_RE.match(before) is not None
            and not re.search(r"[;()]", before)
            and not _SIBLING_END_RE.search(before)
            and not _LIST_MARKER_RE.search(before)
        )
        as_amended = _AS_AMENDED_RE.search(before) is not None
        chained = previous_excluded and bool(
            re.fullmatch(r"[^;]*\)?\s*,?\s*(?:dan|serta)\s*", before, re.IGNORECASE)
        )
        excluded = as_amended or chained or (nested and previous_excluded)
        if not nested and not excluded:
            result.append(mention)
        previous, previous_excluded = mention, excluded
    return result


def _is_partial(text: str, mention: Mention, floor: int) -> bool:
    """``Pasal 5 Peraturan Daerah …``: a part of the regulation, not all of it."""
    window = text[floor : mention.start]
    cuts = [m.end() for m in _ITEM_START_RE.finditer(window)]
    window = window[cuts[-1] :] if cuts else window
    return _PARTIAL_RE.search(window) is not None


# A title without its gazette reference runs on into the clause's verb.
_TITLE_STOP_RE = re.compile(
    r"[\s,]+(?:dicabut|dinyatakan|diubah|sebagaimana|yang\s+telah|sepanjang|kecuali)\b.*$",
    re.IGNORECASE,
)


def _title(text: str, mention: Mention) -> str | None:
    title = title_after(text, mention.end)
    if title:
        title = _TITLE_STOP_RE.sub("", title)
        title = re.sub(r"\s+(?:dan|serta)$", "", title, flags=re.IGNORECASE)
    return title or None


# --- the forms -----------------------------------------------------------------------

_ORDINAL = (
    r"(?:kedua|ketiga|keempat|kelima|keenam|ketujuh|kedelapan|kesembilan|kesepuluh|"
    r"ke-?\s?\d{1,2}|ke\s?\w+\s?belas)"
)
_AMENDMENT_TITLE_RE = re.compile(rf"\bperubahan(?:\s+{_ORDINAL})?\s+atas\s+", re.IGNORECASE)
_REPEAL_TITLE_RE = re.compile(r"\bpencabutan(?:\s+atas)?\s+", re.IGNORECASE)
_AMENDING_CLAUSE_RE = re.compile(
    r"\b(?:beberapa\s+)?ketentuan\s+(?:(?:pasal|ayat|huruf|angka)\s+[\w()]+[\s,]*(?:dan\s+)?)*"
    r"(?:(?:dalam|pada)\s+)?$",
    re.IGNORECASE,
)
_OMNIBUS_RE = re.compile(
    r"\bini\s+mengubah\b[^:;.]{0,120}?\bketentuan\s+(?:yang\s+(?:diatur|terdapat)\s+)?"
    r"dalam\s*:?",
    re.IGNORECASE,
)
_MAIN_AMEND_VERB_RE = re.compile(r"\b(?:diubah|ditambah|dihapus)\b", re.IGNORECASE)
_REPEAL_VERB_RE = re.compile(
    r"\b(?:dicabut(?:\s+dan\s+dinyatakan\s+tidak\s+berlaku)?|dinyatakan\s+tidak\s+berlaku)"
    r"(?:\s+lagi)?\b",
    re.IGNORECASE,
)
_REPORTED_BEFORE_RE = re.compile(
    r"\b(?:telah|sudah|belum|tidak|yang|akan|perlu|untuk|dapat|harus)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
_REPORTED_AFTER_RE = re.compile(r"^\s*(?:dengan|oleh|berdasarkan|sebagian|sepanjang)\b", re.I)
_QUALIFIED_RE = re.compile(r"\b(?:sepanjang|kecuali|sebagian|khususnya)\b", re.IGNORECASE)
_AYAT_START_RE = re.compile(r"(?:^|\s)\(\d{1,3}[a-z]?\)\s")
_SINCE_RE = re.compile(
    r"^\s*(?:pada\s+saat|dengan|sejak|mulai)\b[^,]{0,200}?\bberlaku(?:nya)?\b[^,]{0,120}?,",
    re.IGNORECASE,
)


def _at(text: str, found: Sequence[Mention], position: int) -> Mention | None:
    """The mention that starts right at ``position`` (after blanks)."""
    for mention in found:
        if mention.start >= position:
            return mention if not text[position : mention.start].strip() else None
    return None


def _relation(kind: str, part: Part, mention: Mention, clause: tuple[int, int]) -> FoundRelation:
    start, end = clause
    start = max(start, mention.start - EVIDENCE_MAX_CHARS // 2)
    end = min(end, start + EVIDENCE_MAX_CHARS)
    return FoundRelation(
        kind=kind,
        target=mention.ref,
        title=_title(part.text, mention),
        part=part.name,
        evidence=part.text[start:end].strip(),
        span=_span_in(part.text, start, mention),
        page=part.page_at(mention.start),
    )


def _span_in(text: str, start: int, mention: Mention) -> tuple[int, int]:
    lead = len(text[start:]) - len(text[start:].lstrip())
    return mention.start - start - lead, mention.end - start - lead


def _from_title(part: Part) -> list[FoundRelation]:
    found = mentions(part.text)
    result: list[FoundRelation] = []
    for pattern, kind in ((_AMENDMENT_TITLE_RE, AMENDS), (_REPEAL_TITLE_RE, REPEALS)):
        for match in pattern.finditer(part.text):
            mention = _at(part.text, found, match.end())
            if mention is not None:
                result.append(_relation(kind, part, mention, (match.start(), len(part.text))))
    return result


def _main_verb(text: str, pattern: re.Pattern[str], start: int) -> re.Match[str] | None:
    for verb in pattern.finditer(text, start):
        if _REPORTED_BEFORE_RE.search(text[max(0, verb.start() - 40) : verb.start()]):
            continue
        if _REPORTED_AFTER_RE.match(text, verb.end()):
            continue
        return verb
    return None


def _from_amending_pasal(part: Part) -> list[FoundRelation]:
    text = part.text
    found = mentions(text)
    result: list[FoundRelation] = []
    for head in heads(text, found):
        lead = text[max(0, head.start - 120) : head.start]
        if not _AMENDING_CLAUSE_RE.search(lead):
            continue
        clause_end = min(len(text), head.end + 1500)
        stop = re.search(r"[:;]", text[head.end : clause_end])
        clause_end = head.end + stop.start() if stop else clause_end
        verb = _main_verb(text[:clause_end], _MAIN_AMEND_VERB_RE, head.end)
        if verb is not None:
            start = head.start - len(lead) + _AMENDING_CLAUSE_RE.search(lead).start()  # type: ignore[union-attr]
            result.append(_relation(AMENDS, part, head, (start, verb.end())))
    for intro in _OMNIBUS_RE.finditer(text):
        listed = [m for m in found if m.start >= intro.end()]
        end = _list_end(text, intro.end())
        for head in heads(text[:end], [m for m in listed if m.end <= end]):
            result.append(_relation(AMENDS, part, head, (intro.start(), end)))
    return result


def _list_end(text: str, start: int) -> int:
    """Where a ``dalam: a. …; b. … .`` list ends: the first full stop outside brackets."""
    depth = 0
    for index in range(start, len(text)):
        char = text[index]
        depth += char == "("
        depth -= char == ")" and depth > 0
        if char == "." and depth == 0 and not re.search(r"(?:\bNo|\b[a-z]|\d)$", text[start:index]):
            return index + 1
    return len(text)


def _from_closing_pasal(part: Part) -> list[FoundRelation]:
    text = part.text
    found = mentions(text)
    result: list[FoundRelation] = []
    floor = 0
    while (verb := _main_verb(text, _REPEAL_VERB_RE, floor)) is not None:
        start = _clause_start(text, floor, verb.start())
        subject = [m for m in found if start <= m.start and m.end <= verb.start()]
        for head in heads(text[: verb.start()], subject):
            if _is_partial(text, head, start) or _qualified_after(text, head, found, verb.start()):
                continue
            result.append(_relation(REPEALS, part, head, (start, verb.end())))
        floor = verb.end()
    return result


def _clause_start(text: str, floor: int, verb_start: int) -> int:
    """The start of the clause whose verb is at ``verb_start``: its ayat, after "maka",
    after a leading "Pada saat … berlaku,"."""
    start = floor
    for ayat in _AYAT_START_RE.finditer(text, floor, verb_start):
        start = ayat.start()
    segment = text[start:verb_start]
    maka = list(re.finditer(r"\bmaka\b\s*:?", segment, re.IGNORECASE))
    if maka:
        return start + maka[-1].end()
    since = _SINCE_RE.match(segment)
    return start + since.end() if since else start


def _qualified_after(text: str, head: Mention, found: Sequence[Mention], verb: int) -> bool:
    """``… tentang X, sepanjang mengatur Y, dicabut``: only a part is repealed."""
    following = [m.start for m in found if m.start > head.end and m.start < verb]
    window = text[head.end : following[0] if following else verb]
    window = re.sub(r"\([^()]*\)", " ", window)
    return _QUALIFIED_RE.search(window) is not None


# --- entry point ---------------------------------------------------------------------


def _local_region(target: RegulationRef, own: RegulationRef | None) -> RegulationRef:
    """``Peraturan Daerah Nomor 3 Tahun 2010`` inside a Perda of Banjarnegara is Banjarnegara's:
    a local regulation names its own region's regulations without the region."""
    if target.region or own is None or not own.region:
        return target
    same = target.jenis == own.jenis and target.jenis in LOCAL_JENIS
    legislative = target.jenis in _LEGISLATIVE_LOCAL and own.jenis in LOCAL_JENIS
    if not (same or legislative):
        return target
    return RegulationRef(target.jenis, target.nomor, target.tahun, own.region)


def _is_own(target: RegulationRef, own: RegulationRef | None) -> bool:
    if own is None:
        return False
    return (target.jenis, target.nomor, target.tahun) == (own.jenis, own.nomor, own.tahun)


def extract_relations(
    document_title: str, sections: Sequence[SectionText], own: RegulationRef | None = None
) -> list[FoundRelation]:
    """Every amendment and repeal the regulation states, one per (kind, target)."""
    found: list[FoundRelation] = []
    for part in regulation_parts(document_title, sections):
        if part.name in (TITLE, MENETAPKAN):
            found.extend(_from_title(part))
        elif part.name == BODY:
            found.extend(_from_amending_pasal(part))
        else:
            found.extend(_from_closing_pasal(part))
    result: dict[tuple[str, tuple[str, str, str, str]], FoundRelation] = {}
    for relation in found:
        target = _local_region(relation.target, own)
        if _is_own(target, own) or target.short is None or not _known_jenis(target):
            continue
        if _above(target, own):
            continue
        key = (relation.kind, target.key)
        if key not in result:
            result[key] = FoundRelation(
                relation.kind,
                target,
                relation.title,
                relation.part,
                relation.evidence,
                relation.span,
                relation.page,
            )
    return list(result.values())


# A regulation amends or repeals only regulations of its rank or below (lex superior, UU
# 12/2011 Pasal 7): below a statute, a sentence saying a statute was repealed narrates
# another law's act (PP 26/1955's Penjelasan on UU 14/1953, read as a repeal at 4,336 PP).
_STATUTES = frozenset(
    {"Undang-Undang", "Undang-Undang Darurat", "Peraturan Pemerintah Pengganti Undang-Undang"}
)
_OF_STATUTE_RANK = _STATUTES | {"Ordonansi"}


def _above(target: RegulationRef, own: RegulationRef | None) -> bool:
    """The target is a statute and the regulation stating the change is below one."""
    own_jenis = canonical_jenis(own.jenis) if own is not None and own.jenis else None
    target_jenis = canonical_jenis(target.jenis) if target.jenis else None
    if own_jenis is None or target_jenis is None:
        return False
    return target_jenis.name in _STATUTES and own_jenis.name not in _OF_STATUTE_RANK


def _known_jenis(ref: RegulationRef) -> bool:
    """A target must be identifiable: a known jenis, a nomor and a tahun ("UU 7" alone
    names a different law every year)."""
    known = ref.jenis is not None and canonical_jenis(ref.jenis) is not None
    return known and bool(ref.nomor) and bool(ref.tahun)


def match_key(ref: RegulationRef) -> str:
    """``"undang-undang|13|2003"``: what a relation target and a document are matched on."""
    jenis, nomor, tahun, _region = ref.key
    return f"{jenis}|{nomor}|{tahun}"


def region_key(ref: RegulationRef) -> str:
    return ref.key[3]
