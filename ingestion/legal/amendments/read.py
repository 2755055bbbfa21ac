"""Read an amending regulation's numbered instructions (Pasal I, or the omnibus form).

The drafting standard (UU 12/2011, Lampiran II) gives every amending regulation one shape:
an opening sentence naming the regulation it changes ("Beberapa ketentuan dalam
Undang-Undang Nomor 6 Tahun 1983 … sebagaimana telah diubah dengan … diubah sebagai
berikut:"), then numbered items, each an instruction sentence ("Ketentuan Pasal 6 diubah
sehingga berbunyi sebagai berikut:") followed by the new wording, which restates whole Pasal
under their headings. An omnibus law repeats the opening sentence once per regulation it
amends, so each opening sentence starts one :class:`AmendmentText`.

Restated wording has numbered items of its own ("8. Bagian Tahun Pajak adalah …"), so an
item is taken as the next instruction only when its number is the one expected and its first
words read as an instruction (a unit word and an amending verb).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from bisect import bisect_left
from dataclasses import dataclass
from datetime import date

from ingestion.legal.amendments.model import (
    AmendmentText,
    Instruction,
    NewPasal,
    Operation,
    Target,
)
from ingestion.legal.amendments.pasal import (
    PasalText,
    pasal_key,
    split_pasal,
    without_penjelasan,
)
from ingestion.legal.amendments.text import clean, fix_numbers, read_date
from ingestion.legal.citation import RegulationRef, canonical_jenis, find_regulations
from ingestion.legal.ocr_digits import IN_TEXT, readings

logger = logging.getLogger(__name__)

MAX_HEAD = 900  # an instruction sentence is never longer; past it the wording has begun
MAX_INTRO = 1500
SKIP_TOLERANCE = 3  # numbers an OCR'd list may lose before the next instruction
MIN_ITEM = 12  # the shortest instruction: "Pasal 7 dihapus."
MAX_JUMP = 40  # a longer run may be lost when confirmed by the number after it

_INTRO_RE = re.compile(
    r"(?:beberapa\s+)?ketentuan(?:\s+dan\s+penjelasan)?(?:\s+pasal)?\s+(?:dalam|pada)\s+"
    r"(?=(?:undang|peraturan|keputusan|qanun|perpu|uu\b|pp\b))",
    re.IGNORECASE,
)
_INTRO_FORMULA_RE = re.compile(r"sebagai\s+berikut\s*:?", re.IGNORECASE)
_INTRO_END_RE = re.compile(r"sebagai\s+berikut\s*:?|:", re.IGNORECASE)
_OWN_PASAL_I_RE = re.compile(r"(?:^|\n)[ \t]*Pasal\s+I[ \t]*(?:\n|$)")
_OWN_PASAL_II_RE = re.compile(r"(?:^|\n)[ \t\"“”]*Pasal\s+(?:II|III)[ \t]*(?:\n|$)")
_OWN_HEADING_RE = re.compile(r"(?:^|\n)[ \t]*Pasal\s+(?P<no>[IVXLC]+|\d{1,4}[A-Z]?)[ \t]*\n")
_EARLIER_RE = re.compile(
    r"(?:sebagaimana|yang)\s+(?:telah\s+)?(?:beberapa\s+kali\s+)?(?:diubah|terakhir)", re.IGNORECASE
)
# An item number; what stands before it (a line start, a space, a sentence's end) is checked
# by _item_matches, so the engine can skip ahead to the digits.
_ITEM_RE = re.compile(
    r"(?P<n>\d[0-9lIO]{0,3}|[lI])"
    r"(?:\s?\.\s*(?=[A-Za-z])|\s+(?=(?:Ketentuan|Di\s?antara|Diantara)\b))"
)
_BEFORE_ITEM = frozenset(" \t\n\r”\"':;.")


def _item_matches(section: str, start: int = 0, stop: int | None = None) -> list[re.Match[str]]:
    end = len(section) if stop is None else stop
    return [
        m
        for m in _ITEM_RE.finditer(section, start, end)
        if m.start() == 0 or section[m.start() - 1] in _BEFORE_ITEM
    ]


_KEYWORD_RE = re.compile(
    r"\s*[\"“]?(?:ketentuan|di\s?antara|antara|pasal|bab|judul|penjelasan|lampiran|bagian|"
    r"paragraf|setelah|sesudah|sebelum|ayat|huruf|angka|menambah|menyisipkan|mengubah|"
    r"menghapus|kata|frasa|rumusan|nama|istilah|seluruh|sebutan|penyebutan|"
    r"dalam\s+(?:pasal|bab|lampiran|ketentuan))\b",
    re.IGNORECASE,
)
_VERB_RE = re.compile(
    r"\b(?:di\s?ubah|disisipkan|disisip|dihapus|dihapuskan|ditambah\w*|menambah\w*|"
    r"menyisipkan|dicabut|diganti|tetap|mengubah|mengganti|menghapus\w*|dipecah|disempurnakan)\b",
    re.IGNORECASE,
)
_HEAD_END_RE = re.compile(
    r"(?:berbunyi\s+)?sebagai\s+berikut\s*:?|berbunyi\s*:|:(?=\s*[\"“]?\s*(?:Pasal|BAB|\())",
    re.IGNORECASE,
)
_SENTENCE_END_RE = re.compile(r"\.(?=\s|$)")
_MODIFY_RE = re.compile(
    r"\bdi\s?ubah\b|\bdiganti\b|\bmengubah\b|\bmengganti\b|\bdipecah\b|\bdisempurnakan\b",
    re.IGNORECASE,
)
_INSERT_RE = re.compile(r"\bdisisip(?:kan)?\b|\bmenyisipkan\b", re.IGNORECASE)
_ADD_RE = re.compile(r"\bditambah\w*\b|\bmenambah\w*\b", re.IGNORECASE)
_DELETE_RE = re.compile(r"\bdihapus(?:kan)?\b|\bdicabut\b|\bmenghapus\w*\b", re.IGNORECASE)
# "perkataan "Anggota ABRI" diganti dengan perkataan "Prajurit ABRI"": words, not a unit.
_WORDS_RE = re.compile(
    r"\b(?:kata-kata|kata|perkataan|frasa|frase|istilah|sebutan)\s*[\"“”'](?P<old>[^\"“”]{1,300})[\"“”']"
    r"\s*(?:,\s*)?(?:diganti|diubah)\s+(?:dengan|menjadi)\s+"
    r"(?:(?:kata-kata|kata|perkataan|frasa|frase|istilah|sebutan)\s*)?"
    r"[\"“”'](?P<new>[^\"“”]{0,300})[\"“”']",
    re.IGNORECASE,
)
# "dengan menambah ketentuan baru yang dijadikan Pasal 2A", "ditambahkan pasal baru"
_NEW_PASAL_RE = re.compile(
    r"\b(?:menambah\w*|ditambah\w*)\s+(?:\S+\s+){0,3}?(?:ketentuan|pasal)\s+baru\b", re.I
)
_STARTS_BETWEEN_RE = re.compile(r"\s*[\"“]?(?:di\s?antara|antara)\b", re.IGNORECASE)
_PENJELASAN_ONLY_RE = re.compile(
    r"\btetap\b[^.:]*\bpenjelasan|^\s*penjelasan\b|substansi\s+tetap", re.IGNORECASE
)
_BETWEEN_RE = re.compile(
    r"\bdi\s?antara\s+(?P<x>(?:ketentuan\s+)?(?:Pasal|BAB|Bab|Bagian|Paragraf|ayat|huruf|angka)\b.+?)"
    r"\s+(?:dan\s+)?(?P<y>(?:Pasal|BAB|Bab|Bagian|Paragraf|ayat|huruf|"
    r"angka)\b\s*\S+?)(?=\s+(?:disisip\w*|ditambah\w*|menyisipkan|yang|sehingga)\b|,|\s*$)",
    re.IGNORECASE,
)
_NEW_UNITS_RE = re.compile(
    r"\b(?:yakni|yaitu|ialah|yaknl|dijadikan|menjadi)\b(?P<units>.+?)(?:\bsehingga\b|\byang\s+(?:diletakkan|"
    r"berbunyi|berisi)|\bberbunyi\b|$)|\bdisisipkan\s+(?P<direct>(?:huruf|angka|ayat)\s+\S+)",
    re.IGNORECASE | re.DOTALL,
)
_SO_THAT_RE = re.compile(
    r"\bsehingga\s+(?:keseluruhan\s+|seluruh\s+)?(?P<unit>(?:Pasal|BAB|Bab|Bagian|ayat)\s+[^,]+?)"
    r"\s+(?:seluruhnya\s+)?(?:menjadi\s+)?berbunyi",
    re.IGNORECASE,
)
_UNIT_RE = re.compile(
    r"\b(?P<kind>Pasal|BAB|Bab|Bagian|Paragraf|ayat|huruf|angka)\s+"
    r"(?P<no>\(\s*\d{1,3}\s?[a-z]?\s*\)|\d{1,4}[A-Za-z]?\d?|[IVXLC]+[A-Z]?\b|Ke\w+|Pertama|"
    r"[a-z]\d?\b)",
    re.IGNORECASE,
)
_EFFECTIVE_RE = re.compile(
    r"mulai\s+berlaku\s+(?:pada\s+tanggal|sejak\s+tanggal|pada)\s+(?P<when>diundangkan|[^.]{4,40})",
    re.IGNORECASE,
)
# "tanggal" as OCR prints it too ("tanggaI", "tangga1").
_ENACTED_RE = re.compile(
    r"Diundangkan\s+di\s+\w+\s+pada\s+tangga[lI1|i]\s+(?P<when>[^\n]{4,40})", re.I
)
# "PERUBAHAN KEDUA ATAS …", "PENGUBAHAN DAN PENAMBAHAN PERATURAN …", "PEROBAHAN … ATAS …"
_TITLE_TARGET_RE = re.compile(
    r"\b(?:perubahan|pengubahan|perobahan)\b(?:\s+(?:\w+\s+){0,3}?atas\b)?", re.IGNORECASE
)


def read_amendments(text: str, own: RegulationRef) -> list[AmendmentText]:
    """One :class:`AmendmentText` per regulation ``text`` amends; never raises.

    A garbled text yields unparsed instructions or an empty list: a bad Pasal I fails only
    its own consolidation, never the document's indexing.
    """
    try:
        return _read(text, own)
    except Exception:  # a hostile text fails only its own consolidation, never indexing
        logger.warning("amendments: Pasal I of %s could not be read", own.short, exc_info=True)
        return []


@dataclass(frozen=True)
class _Section:
    """One amended regulation's part of the text: its opening sentence and its items."""

    heading: str  # the amending regulation's own Pasal ("I", "81")
    intro: str
    start: int  # where the items begin
    end: int


def _read(text: str, own: RegulationRef) -> list[AmendmentText]:
    cleaned = clean(text)
    body = without_penjelasan(cleaned)
    enacted, effective = _dates(body)
    sections = _sections(body)
    results = []
    for section in sections:
        target, earlier = _regulations(section.intro, own)
        if target is None:
            target = _stated_target(body, section.start, own)
        items = body[section.start : section.end]
        instructions = _instructions(items, section.heading, own, section.intro)
        results.append(
            AmendmentText(
                target=target,
                earlier=earlier,
                enacted=enacted,
                effective=effective,
                instructions=tuple(instructions),
            )
        )
    return results


def regulation_dates(text: str) -> tuple[date | None, date | None]:
    """(enacted, in force) of any regulation: "Diundangkan di … pada tanggal …" and "mulai
    berlaku pada tanggal diundangkan" (the enactment date) or the later date it states."""
    try:
        return _dates(without_penjelasan(clean(text)))
    except (ValueError, IndexError, RecursionError):
        return None, None


def _dates(body: str) -> tuple[date | None, date | None]:
    matches = list(_ENACTED_RE.finditer(body))
    enacted = read_date(matches[-1].group("when")) if matches else None
    effective = enacted
    closing = body.rfind("Agar")
    for match in _EFFECTIVE_RE.finditer(body, 0):
        if closing != -1 and match.start() > closing:
            break
        when = match.group("when")
        effective = enacted if when.lower() == "diundangkan" else (read_date(when) or enacted)
    return enacted, effective


def _sections(body: str) -> list[_Section]:
    """The opening sentences and the stretch of items each one governs."""
    pasal_i = _OWN_PASAL_I_RE.search(body)
    search_from = pasal_i.start() if pasal_i else _start_of_body(body)
    intros: list[tuple[int, int, str]] = []
    for match in _INTRO_RE.finditer(body, search_from):
        if intros and match.start() < intros[-1][1]:
            continue
        end = _INTRO_FORMULA_RE.search(body, match.end(), match.end() + MAX_INTRO)
        end = end or _INTRO_END_RE.search(body, match.end(), match.end() + MAX_INTRO)
        if end is None:
            continue
        intro = body[match.start() : end.end()]
        if not _MODIFY_RE.search(intro) or not _item_follows(body, end.end()):
            continue
        intros.append((match.start(), end.end(), intro))
    if not intros and pasal_i and _says_amending(body, pasal_i.end()):
        intros.append((pasal_i.start(), pasal_i.end(), ""))
    sections = []
    for index, (start, items_at, intro) in enumerate(intros):
        stop = intros[index + 1][0] if index + 1 < len(intros) else len(body)
        own_heading = re.search(
            r"\n[ \t]*Pasal\s+\w{1,6}[ \t]*\n?[ \t]*$", body[max(0, stop - 40) : stop]
        )
        if own_heading is not None and index + 1 < len(intros):
            stop -= len(body[max(0, stop - 40) : stop]) - own_heading.start()
        closing = _OWN_PASAL_II_RE.search(body, items_at, stop)
        items_end = closing.start() if closing else _closing_formula(body, items_at, stop)
        sections.append(_Section(_own_heading(body, start), intro, items_at, items_end))
    return sections


def _says_amending(body: str, pasal_i_end: int) -> bool:
    """A "Pasal I" with no opening sentence amends only if the title or its words say so
    (older regulations number their own articles I, II … too)."""
    if _TITLE_TARGET_RE.search(body[:1500]):
        return True
    opening = body[pasal_i_end : pasal_i_end + 400]
    return bool(_MODIFY_RE.search(opening) and find_regulations(fix_numbers(opening)))


def _start_of_body(body: str) -> int:
    match = re.search(r"MEMUTUSKAN|Menetapkan\s*:", body, re.IGNORECASE)
    return match.end() if match else 0


def _item_follows(body: str, at: int) -> bool:
    """An opening sentence is followed by item 1 or by a single instruction."""
    after = body[at : at + 400]
    return bool(re.match(r"\s*[\"“]?\s*1\s?\.", after) or _VERB_RE.search(after[:300]))


def _closing_formula(body: str, start: int, stop: int) -> int:
    match = re.compile(r"Agar\s+(?:supaya\s+)?setiap\s+orang", re.IGNORECASE).search(
        body, start, stop
    )
    return match.start() if match else stop


def _own_heading(body: str, at: int) -> str:
    heading = "I"
    for match in _OWN_HEADING_RE.finditer(body, max(0, at - 3000), at + 1):
        heading = match.group("no")
    return heading


def _regulations(
    intro: str, own: RegulationRef
) -> tuple[RegulationRef | None, tuple[RegulationRef, ...]]:
    """The regulation an opening sentence amends and the earlier amendments it names."""
    fixed = fix_numbers(intro)
    mentions = [(ref, span) for ref, span in find_regulations(fixed) if ref.key != own.key]
    if not mentions:
        return None, ()
    target = mentions[0][0]
    earlier_at = _EARLIER_RE.search(fixed)
    earlier: list[RegulationRef] = []
    if earlier_at:
        last_end = earlier_at.end()
        for ref, (start, end) in mentions[1:]:
            if start < earlier_at.start() or ref.key == target.key or ref in earlier:
                continue
            between = fixed[last_end:start]
            if re.search(r"\btentang\b", between) and not re.search(r"\bdan\b|;", between):
                continue  # named inside the previous amendment's title
            earlier.append(ref)
            last_end = end
        earlier.extend(r for r in _listed_earlier(fixed[earlier_at.start() :]) if r not in earlier)
    return target, tuple(earlier)


_LISTED_RE = re.compile(
    r"diubah\s+(?:terakhir\s+)?dengan\s+(?P<jenis>Undang-Undang|Peraturan\s+Pemerintah|"
    r"Peraturan\s+Presiden|Peraturan\s+Daerah)\s*:(?P<list>.*)",
    re.IGNORECASE | re.DOTALL,
)
_LISTED_ITEM_RE = re.compile(r"Nomor\s+(?P<nomor>\d{1,4})\s+Tahun\s+(?P<tahun>(?:19|20)\d{2})")


def _listed_earlier(text: str) -> list[RegulationRef]:
    """ "diubah dengan Undang-Undang: a. Nomor 9 Tahun 1994 …; b. Nomor 16 Tahun 2000 …"."""
    match = _LISTED_RE.search(text)
    if match is None:
        return []
    jenis = canonical_jenis(match.group("jenis"))
    if jenis is None:
        return []
    return [
        RegulationRef(jenis.name, m.group("nomor"), m.group("tahun"))
        for m in _LISTED_ITEM_RE.finditer(match.group("list"))
    ]


def _stated_target(body: str, items_start: int, own: RegulationRef) -> RegulationRef | None:
    """The regulation the enacting formula ("Menetapkan : … PERUBAHAN ATAS …") names, else
    the title's. The formula is the enacted text; a JDIH's title line can be mistyped (PP
    46/1980's says "NOMOR 16 TAHUN 1974" where its Menetapkan and Pasal I say 1980)."""
    start = _start_of_body(body)
    formula = _title_target(body[start:items_start], own) if 0 < start < items_start else None
    return formula or _title_target(body[:3000], own)


def _title_target(head: str, own: RegulationRef) -> RegulationRef | None:
    match = _TITLE_TARGET_RE.search(head)
    if match is None:
        return None
    for ref, _span in find_regulations(fix_numbers(head[match.end() : match.end() + 300])):
        if ref.key != own.key:
            return ref
    return None


# --- items -------------------------------------------------------------------------------


def _instructions(
    section: str, heading: str, own: RegulationRef, intro: str = ""
) -> list[Instruction]:
    starts = _item_starts(section)
    prefix = f"{own.short} " if own.short else ""
    if not starts:
        if not section.strip():
            return []
        # One instruction, no numbers: "Ketentuan Pasal 1 dalam … diubah sehingga berbunyi
        # sebagai berikut:" is the opening sentence and the instruction at once.
        single = section.strip()
        if not _VERB_RE.search(_first_sentence(single[:300])):
            single = f"{intro} {single}" if intro else single
        return [_instruction(1, f"{prefix}Pasal {heading}", single)]
    starts = _recover_lost(section, starts)
    starts += _trailing_items(section, starts[-1])
    result: list[Instruction] = []
    expected = 1
    for index, (number, at) in enumerate(starts):
        while expected < number:  # a number the text lost: kept so no item goes unseen
            result.append(_lost(expected, f"{prefix}Pasal {heading} angka {expected}"))
            expected += 1
        end = starts[index + 1][1] if index + 1 < len(starts) else len(section)
        source = f"{prefix}Pasal {heading} angka {number}"
        result.append(_instruction(number, source, section[at:end].strip()))
        expected = number + 1
    return result


def _trailing_items(section: str, last: tuple[int, int]) -> list[tuple[int, int]]:
    """Numbered items after the last instruction read, in turn, that open as instructions
    do but whose sentence did not read as one (OCR broke its verb): kept, so the count of
    a Pasal I's items is its printed count and an unread one shows as unparsed."""
    number, at = last
    found: list[tuple[int, int]] = []
    for match in _item_matches(section, at + MIN_ITEM):
        if _item_number(match.group("n")) != number + 1:
            continue
        if _ITEM_OPENING_RE.match(section[match.end() : match.end() + 200]):
            number += 1
            found.append((number, match.start()))
    return found


_BARE_WORD_RE = re.compile(r"Ketentuan\b|Di\s?antara\b|Diantara\b")
_BARE_BEFORE_RE = re.compile(r"(?:^|\n|[.;:”\"]\s?)[ \t]*(?P<number>\d{1,2}\s+)?$")


def _recover_lost(section: str, starts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Give lost item numbers to the instruction sentences found between two items.

    Two kinds are found: an item numbered in turn that opens with a unit word but has no
    verb (read, then kept as unparsed) and an unnumbered instruction sentence. A sentence
    that kept its number without the dot ("8 Di antara …") keeps that number; the others
    take the next numbers in turn.
    """
    result: list[tuple[int, int]] = []
    for number, at in starts:
        last, previous_at = result[-1] if result else (0, 0)
        if number == last + 1:  # nothing lost before this item
            result.append((number, at))
            continue
        begin = previous_at + MIN_ITEM if result else 0  # item 1 may open the section
        found = _keyword_items(section, begin, at)
        found += [(None, s) for s in _bare_starts(section, begin, at)]
        for written, start in sorted(found, key=lambda f: f[1]):
            if written is None:
                bare = re.match(r"\s*(\d{1,2})\s", section[start : start + 6])
                written = int(bare.group(1)) if bare else None
            ordinal = written if written is not None and last < written < number else last + 1
            if ordinal >= number or (result and start - previous_at < MIN_ITEM):
                continue
            result.append((ordinal, start))
            last, previous_at = ordinal, start
        result.append((number, at))
    return result


_ITEM_OPENING_RE = re.compile(
    r"\s*[\"“]?(?:ketentuan|di\s?antara|diantara|pasal\s+\d|bab\s+[ivxlc]|penjelasan|lampiran|"
    r"judul)\b",
    re.IGNORECASE,
)


def _keyword_items(section: str, start: int, stop: int) -> list[tuple[int | None, int]]:
    """Numbered items that open as an instruction does but have no verb (not definitions)."""
    found: list[tuple[int | None, int]] = []
    for match in _item_matches(section, start, stop):
        head = section[match.end() : match.end() + 200]
        if not match.group(0).rstrip().endswith(".") or not _ITEM_OPENING_RE.match(head):
            continue
        if re.search(r"\badalah\b|\bialah\b", head) or _VERB_RE.search(_first_sentence(head)):
            continue  # a definition in restated wording; verbs were candidates already
        found.append((_item_number(match.group("n")), match.start()))
    return found


def _bare_starts(section: str, start: int, stop: int) -> list[int]:
    """Unnumbered instruction sentences in ``section[start:stop]`` (one offset each)."""
    found: list[int] = []
    for match in _BARE_WORD_RE.finditer(section, start, stop):
        before = _BARE_BEFORE_RE.search(section[max(0, match.start() - 8) : match.start()])
        if before is None or re.search(
            r"\d\s?\.\s*$", section[max(0, match.start() - 6) : match.start()]
        ):
            continue
        if _is_bare_instruction(section[match.start() : match.start() + 400]):
            lead = before.group("number")
            found.append(match.start() - (len(lead) if lead else 0))
    return found


def _is_bare_instruction(head: str) -> bool:
    sentence = _first_sentence(head)
    return bool(_VERB_RE.search(sentence)) and bool(
        re.search(r"sebagai\s+berikut|dihapus\s*\.|\bberbunyi\b", head[: len(sentence) + 40])
    )


@dataclass
class _Candidates:
    """Where each number opens a possible item: all of them, and the strong ones."""

    every: dict[int, list[int]]
    strong: dict[int, list[int]]

    def first(self, number: int, position: int, strong: bool) -> int | None:
        """The first offset ≥ ``position`` where ``number`` opens a candidate."""
        offsets = (self.strong if strong else self.every).get(number, [])
        index = bisect_left(offsets, position)
        return offsets[index] if index < len(offsets) else None


def _item_starts(section: str) -> list[tuple[int, int]]:
    """(number, offset) of each numbered instruction, in order."""
    candidates = _Candidates({}, {})
    for match in _item_matches(section):
        head = section[match.end() : match.end() + 300]
        if not _VERB_RE.search(_first_sentence(head)):
            continue
        strong = opens_instruction(head)
        if not match.group(0).rstrip().endswith(".") and not strong:
            continue
        number = _item_number(match.group("n"))
        candidates.every.setdefault(number, []).append(match.start())
        if strong:
            candidates.strong.setdefault(number, []).append(match.start())
    chosen: list[tuple[int, int]] = []
    expected = 1
    position = 0
    while True:
        pick = _pick(candidates, expected, position)
        if pick is None:
            break
        number, start = pick
        chosen.append((number, start))
        expected = number + 1
        position = start + 1
    return chosen


def _item_number(raw: str) -> int:
    return int(raw.translate(IN_TEXT))


def _pick(candidates: _Candidates, expected: int, position: int) -> tuple[int, int] | None:
    """The next item: a strong candidate for ``expected`` before the next strong one.

    OCR may lose a run of item numbers (page footers read over them); a later number is
    taken only when the number after it follows too, so a stray list item is not.
    """
    for skip in range(MAX_JUMP + 1):
        number = expected + skip
        following = candidates.first(number + 1, position, strong=True)
        limit = following if following is not None else 10**12
        strong = candidates.first(number, position, strong=True)
        confirmed = skip <= SKIP_TOLERANCE or following is not None
        if strong is not None and strong < limit and confirmed:
            return number, strong
        # A weak candidate (its keyword OCR-damaged: "22. Ketenitan Pasal 22 diubah …") is
        # taken in turn, or after lost numbers when the next number follows it.
        if skip == 0 or following is not None:
            weak = candidates.first(number, position, strong=False)
            if weak is not None and weak < limit:
                return number, weak
    return None


def opens_instruction(text: str) -> bool:
    """Whether an item's text opens as an instruction does: a unit word first ("Ketentuan",
    "Di antara", "Pasal 16", "Bab V", "Penjelasan" …) and an amending verb in its first
    sentence ("diubah", "disisipkan", "dihapus", "ditambah", "tetap" …).

    The one home of these forms: the structure grammar asks it too, so an instruction line
    is never read as an angka of the Pasal it follows (:mod:`ingestion.legal.structure`).
    """
    head = text[:300]
    return bool(_KEYWORD_RE.match(head)) and bool(_VERB_RE.search(_first_sentence(head)))


def instruction_pasal(instruction: str) -> frozenset[str]:
    """Every Pasal an instruction sentence names, new ones included ("Di antara Pasal 27 dan
    Pasal 28 disisipkan 2 (dua) pasal, yakni Pasal 27A dan Pasal 27B" → 27, 28, 27A, 27B):
    the numbers a restated heading below it may carry."""
    head, _body = _split_head(_join_split_words(instruction))
    fixed = fix_numbers(" ".join(head.split()))
    bounds = _between(fixed, _context(fixed)) if _operation(fixed) is Operation.INSERT else None
    numbers = (n.replace(" ", "") for kind, n in _units(fixed) if kind == "pasal")
    return frozenset(_placed(n, bounds) if bounds else n for n in numbers)


def restated_pasal(instruction: str) -> str | None:
    """The Pasal whose wording follows an instruction sentence, when it restates exactly
    one of the amended regulation's Pasal in whole or in part ("Ketentuan Pasal 5 diubah
    sehingga berbunyi …", "Ketentuan Pasal 10 ayat (4) huruf b diubah sehingga …"). The
    structure grammar opens that Pasal for a restatement printed without its heading."""
    head, _body = _split_head(_join_split_words(instruction))
    if not re.search(r"berbunyi|sebagai\s+berikut", instruction[: len(head) + 40], re.I):
        return None
    fixed = fix_numbers(" ".join(head.split()))
    if _operation(fixed) not in (Operation.REPLACE, Operation.ADD_UNITS):
        return None
    context = _context(fixed)
    named = {t.pasal for t in _targets(fixed, _operation(fixed) or Operation.REPLACE, context)}
    return context.pasal if context.pasal and named <= {context.pasal} else None


def _first_sentence(text: str) -> str:
    end = re.search(r"[:;]|\.(?=\s)|sebagai\s+berikut", text)
    return text[: end.start() if end else len(text)]


def _lost(ordinal: int, source: str) -> Instruction:
    return Instruction(
        ordinal=ordinal,
        source=source,
        operation=None,
        reason=f"Butir {ordinal} tidak ditemukan dalam teks (rusak saat konversi).",
    )


def _instruction(ordinal: int, source: str, item: str) -> Instruction:
    """Read one numbered item; an unreadable one is kept with its reason."""
    text = re.sub(r"^(?:\d[0-9lIO]{0,3}|[lI])(?:\s?\.|\s)\s*", "", item)
    head, body = _split_head(_join_split_words(text))
    fixed = fix_numbers(" ".join(head.split()))
    operation = _operation(fixed)
    if operation is None and body:  # "Ketentuan Pasal 167 sebagai berikut: diubah sehingga …"
        moved = re.match(r"\s*((?:di\s?ubah|dihapus)\b[^:.]{0,60}?berbunyi)\s*", body, re.I)
        if moved is not None:
            fixed, body = f"{fixed} {moved.group(1)}", body[moved.end() :]
            operation = _operation(fixed)
    if operation is None:
        return Instruction(
            ordinal, source, None, text=item, reason="Jenis perubahan tidak dikenali."
        )
    context = _context(fixed)
    after, before = _between(fixed, context)
    targets = _targets(fixed, operation, context)
    new_pasal: tuple[NewPasal, ...] = ()
    if operation is not Operation.PENJELASAN:
        new_pasal = _new_pasal(fixed, body, targets, context, operation)
    words = _WORDS_RE.search(fixed)
    reason = "" if words and targets else _unreadable(operation, targets, new_pasal, body, fixed)
    return Instruction(
        ordinal=ordinal,
        source=source,
        operation=None if reason else operation,
        targets=targets,
        after=after,
        before=before,
        new_pasal=new_pasal,
        text=item,
        reason=reason,
        body=body,
        words=(words.group("old"), words.group("new")) if words else None,
    )


# (a piece the damage always leaves, the damaged form, the word)
_SPLIT_WORDS = (
    ("diu", re.compile(r"\bdiu\s+bah\b"), "diubah"),
    ("bunyi", re.compile(r"\bber\s+bunyi\b"), "berbunyi"),
    ("bagai", re.compile(r"\bse\s+bagai\b"), "sebagai"),
    ("sipkan", re.compile(r"\bdisipkan\b|\bdisi\s+sipkan\b"), "disisipkan"),
    ("hapus", re.compile(r"\bdi\s+hapus\b"), "dihapus"),
)


def _join_split_words(text: str) -> str:
    """The instruction words OCR splits or misspells ("diu bah", "ber bunyi", "disipkan")."""
    head = text[:MAX_HEAD]
    for piece, pattern, word in _SPLIT_WORDS:
        if piece in head:
            head = pattern.sub(word, head)
    return head + text[MAX_HEAD:]


def _split_head(text: str) -> tuple[str, str]:
    """The instruction sentence and the wording that follows it."""
    end = _HEAD_END_RE.search(text, 0, MAX_HEAD)
    if end is not None:
        return text[: end.start()], text[end.end() :].strip(" \t\n\"“”'")
    sentence = _SENTENCE_END_RE.search(text, 0, MAX_HEAD)
    if sentence is not None:
        return text[: sentence.start()], text[sentence.end() :].strip(" \t\n\"“”'")
    return text[:MAX_HEAD], text[MAX_HEAD:].strip()


def _operation(head: str) -> Operation | None:
    if _PENJELASAN_ONLY_RE.search(head) and not re.search(
        r"sehingga\s+(?:keseluruhan\s+)?pasal", head, re.IGNORECASE
    ):
        return Operation.PENJELASAN
    if _NEW_PASAL_RE.search(head):
        return Operation.INSERT
    between = _STARTS_BETWEEN_RE.match(head) or (
        re.search(r"\bdi\s?antara\b", head, re.IGNORECASE) and not _MODIFY_RE.search(head)
    )
    if between and (_INSERT_RE.search(head) or _ADD_RE.search(head)):
        return Operation.INSERT
    if _MODIFY_RE.search(head):
        return Operation.REPLACE
    if _INSERT_RE.search(head):
        return Operation.INSERT
    if _ADD_RE.search(head):
        return Operation.ADD_UNITS
    if _DELETE_RE.search(head):
        return Operation.DELETE
    return None


_LAMPIRAN_RE = re.compile(r"\bLampiran(?:\s+(?P<no>[IVXLC]+)\b)?", re.IGNORECASE)


def _units(text: str) -> list[tuple[str, str]]:
    """(kind, number) of every unit ``text`` names, in order ("ayat (2)" → ("ayat", "2"))."""
    lampiran = _LAMPIRAN_RE.search(text)
    if lampiran is not None and not re.search(r"\bPasal\b", text, re.IGNORECASE):
        return [("lampiran", (lampiran.group("no") or "").upper())]  # an annex, not a Pasal
    units: list[tuple[str, str]] = []
    last_end = 0
    for match in _UNIT_RE.finditer(text):
        kind = match.group("kind").lower()
        number = match.group("no").strip("() ").replace(" ", "")
        if kind in ("pasal", "bab"):
            number = number.upper()
        if kind == "bab" and not re.fullmatch(r"[IVXLC]+[A-Z]?|\d+[A-Z]?", number):
            continue
        if units and _RANGE_RE.fullmatch(text[last_end : match.start()]):
            units.extend((kind, n) for n in _between_numbers(units[-1], (kind, number)))
        units.append((kind, number))
        last_end = match.end()
    return units


_RANGE_RE = re.compile(r"\s*(?:sampai\s+dengan|s\.?\s?d\.?|hingga)\s*", re.IGNORECASE)
MAX_RANGE = 60


def _between_numbers(first: tuple[str, str], last: tuple[str, str]) -> list[str]:
    """The units strictly between "huruf a sampai dengan huruf d" (b, c), or "Pasal 5 s.d.
    Pasal 8" (6, 7); none when the two are not plain letters or numbers of one kind."""
    if first[0] != last[0]:
        return []
    low, high = first[1], last[1]
    if low.isdigit() and high.isdigit() and 0 < int(high) - int(low) <= MAX_RANGE:
        return [str(n) for n in range(int(low) + 1, int(high))]
    if len(low) == len(high) == 1 and low.isalpha() and high.isalpha() and low < high:
        return [chr(c) for c in range(ord(low) + 1, ord(high))]
    return []


def _context(head: str) -> Target:
    """The Pasal (and ayat) the instruction works inside."""
    so_that = _SO_THAT_RE.search(head)
    units = _units(head)
    pasal = next((n for k, n in units if k == "pasal"), None)
    if so_that is not None:
        pasal = next((n for k, n in _units(so_that.group("unit")) if k == "pasal"), pasal)
    bab = next((n for k, n in units if k == "bab"), None)
    ayats = [n for k, n in units if k == "ayat"]
    ayat = ayats[0] if len(set(ayats)) == 1 and _BETWEEN_RE.search(head) else None
    if ayat is not None and any(k == "ayat" for k, _ in _units(_between_text(head))):
        ayat = None
    return Target(bab=None if pasal else bab, pasal=pasal, ayat=ayat)


def _between_text(head: str) -> str:
    match = _BETWEEN_RE.search(head)
    return match.group(0) if match else ""


def _target_of(units: list[tuple[str, str]], context: Target) -> Target | None:
    """One unit from a phrase such as "ayat (2) Pasal 35" or "huruf d", inside ``context``."""
    if not units:
        return None
    values: dict[str, str] = {}
    for kind, number in units:
        values.setdefault(kind, number)
    if "pasal" in values or "bab" in values or "bagian" in values:
        return Target(
            bab=values.get("bab"),
            bagian=values.get("bagian"),
            paragraf=values.get("paragraf"),
            pasal=values.get("pasal"),
            ayat=values.get("ayat"),
            huruf=values.get("huruf"),
            angka=values.get("angka"),
        )
    return Target(
        pasal=context.pasal,
        ayat=values.get("ayat") or (context.ayat if "ayat" not in values else None),
        huruf=values.get("huruf"),
        angka=values.get("angka"),
    )


def _between(head: str, context: Target) -> tuple[Target | None, Target | None]:
    match = _BETWEEN_RE.search(head)
    if match is None:
        return None, None
    after = _target_of(_units(match.group("x")), context)
    before = _target_of(_units(match.group("y")), context)
    if after is not None and before is not None and before.pasal and not after.pasal:
        after = Target(pasal=before.pasal, ayat=after.ayat, huruf=after.huruf, angka=after.angka)
    return after, before


def _targets(head: str, operation: Operation, context: Target) -> tuple[Target, ...]:
    """The units the instruction names as changed, deleted or newly added."""
    if operation in (Operation.INSERT, Operation.ADD_UNITS):
        new = _NEW_UNITS_RE.search(head)
        if new is not None:
            phrase = new.group("units") or new.group("direct") or ""
            found = _resolve(_units(phrase), context)
            if found:
                return _placed_between(found, _between(head, context))
        if operation is Operation.INSERT and not _MODIFY_RE.search(head):
            return (context,) if context.pasal or context.bab else ()
    verb = _first_verb(head)
    named = _units(head[:verb])
    if not named:  # "Mengubah Lampiran II …": the active verb comes first
        named = _units(re.split(r"\bsehingga\b", head, maxsplit=1)[0])
    return _resolve(named, context) or ((context,) if context.label() else ())


def _placed_between(
    found: tuple[Target, ...], bounds: tuple[Target | None, Target | None]
) -> tuple[Target, ...]:
    """New Pasal inserted "di antara Pasal 9 dan Pasal 10" sort between them."""
    return tuple(
        dataclasses.replace(t, pasal=_placed(t.pasal, bounds)) if t.pasal and not t.ayat else t
        for t in found
    )


def _placed(number: str, bounds: tuple[Target | None, Target | None]) -> str:
    """A Pasal number OCR printed "94" where the instruction inserts between Pasal 9 and 10 is
    the one reading that sorts between them (9A). Numbers that fit, or have no such reading,
    stay as printed."""
    after, before = bounds
    if after is None or before is None or not after.pasal or not before.pasal:
        return number
    low, high = pasal_key(after.pasal), pasal_key(before.pasal)
    if number in (after.pasal, before.pasal) or low < pasal_key(number) < high:
        return number
    fits = {r for r in readings(number) if low < pasal_key(r) < high}
    return fits.pop() if len(fits) == 1 else number


def _first_verb(head: str) -> int:
    positions = [
        m.start() for r in (_MODIFY_RE, _INSERT_RE, _ADD_RE, _DELETE_RE) if (m := r.search(head))
    ]
    return min(positions) if positions else len(head)


def _resolve(units: list[tuple[str, str]], context: Target) -> tuple[Target, ...]:
    """Targets from a list of units: sub-units take the Pasal named before or after them."""
    targets: list[Target] = []
    pasal = context.pasal
    bab: str | None = None
    bagian: str | None = None
    paragraf: str | None = None
    pending: list[tuple[str, str]] = []
    ayat: str | None = context.ayat
    for index, (kind, number) in enumerate(units):
        if kind == "lampiran":
            targets.append(Target(lampiran=number))
        elif kind == "bab":
            bab = number
        elif kind == "bagian":
            bagian = number
        elif kind == "paragraf":
            paragraf = number
        elif kind == "pasal":
            pasal = number
            ayat = None
            following = units[index + 1][0] if index + 1 < len(units) else None
            if pending:  # "ayat (2) dan ayat (3) Pasal 8": the Pasal closes its ayat
                targets.extend(_sub(pasal, kind, n, None) for kind, n in pending)
                pending = []
            elif following not in ("ayat", "huruf", "angka") and not any(
                t.pasal == number for t in targets
            ):
                targets.append(Target(pasal=pasal))
        elif kind == "ayat":
            ayat = number
            if pasal is None:
                pending.append((kind, number))
            elif index + 1 >= len(units) or units[index + 1][0] not in ("huruf", "angka"):
                targets.append(_sub(pasal, kind, number, None))
        elif pasal is None:
            pending.append((kind, number))
        else:
            targets.append(_sub(pasal, kind, number, ayat))
    if not targets and (bab or bagian or paragraf):
        targets.append(Target(bab=bab, bagian=bagian, paragraf=paragraf))
    for sub_kind, sub_number in pending:
        targets.append(_sub(context.pasal, sub_kind, sub_number, None))
    unique: list[Target] = []
    for target in targets:
        if target not in unique:
            unique.append(target)
    return tuple(unique)


def _sub(pasal: str | None, kind: str, number: str, ayat: str | None) -> Target:
    if kind == "ayat":
        return Target(pasal=pasal, ayat=number)
    if kind == "huruf":
        return Target(pasal=pasal, ayat=ayat, huruf=number)
    return Target(pasal=pasal, ayat=ayat, angka=number)


def _new_pasal(
    head: str, body: str, targets: tuple[Target, ...], context: Target, operation: Operation
) -> tuple[NewPasal, ...]:
    """The Pasal the item restates under their headings.

    For a Pasal-level instruction only the Pasal it names count (the wording may quote
    others); a heading OCR damaged ("Pasal 67,4'" for 67A) takes the name the instruction
    gives it when the counts agree.
    """
    if not body:
        return ()
    named = [t.pasal for t in targets if t.pasal and not (t.bab or t.bagian)]
    if operation is not Operation.INSERT and context.pasal:
        named.append(context.pasal)
    named = list(dict.fromkeys(named))
    pasal_level = bool(named) and not any((t.bab or t.bagian) and not t.pasal for t in targets)
    found = split_pasal(body, frozenset(named))
    if pasal_level:
        kept = [p for p in found if p.number in named]
        if len(kept) < len(named) and len(found) == len(named):
            kept = [PasalText(n, p.bab, p.text) for n, p in zip(named, found, strict=True)]
        found = kept
    if not found and _restates_whole(head, targets, context) and context.pasal:
        return (NewPasal(context.pasal, body.strip(" \t\n\"“”'")),)
    result: list[NewPasal] = []
    seen: set[str] = set()
    for pasal in found:
        if pasal.number not in seen:
            seen.add(pasal.number)
            result.append(NewPasal(pasal.number, pasal.text))
    return tuple(result)


def _restates_whole(head: str, targets: tuple[Target, ...], context: Target) -> bool:
    """Does the wording restate the whole Pasal (not just the ayat or huruf named)?"""
    so_that = _SO_THAT_RE.search(head)
    if so_that is not None:
        units = _units(so_that.group("unit"))
        return bool(units) and units[0][0] == "pasal"
    return all(t.ayat is None and t.huruf is None and t.angka is None for t in targets)


def _unreadable(
    operation: Operation,
    targets: tuple[Target, ...],
    new_pasal: tuple[NewPasal, ...],
    body: str,
    head: str,
) -> str:
    """Why an instruction whose verb was read still cannot be applied ("" when it can)."""
    if operation is Operation.PENJELASAN:
        return ""
    if not targets and not new_pasal:
        return "Unit yang diubah tidak ditemukan dalam kalimat perintah."
    if operation is Operation.DELETE:
        return ""
    judul = re.match(r"\s*judul\b", head, re.IGNORECASE)
    annex = bool(targets) and all(t.lampiran is not None for t in targets)
    if not new_pasal and not body and not judul and not annex:
        return "Rumusan baru tidak ditemukan."
    return ""
