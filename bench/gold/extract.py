"""A second reader of the amendment chains, written apart from the product's, for the gold.

Run from the repository root::

    .venv/bin/python bench/gold/extract.py > bench/gold/consolidation.json
    .venv/bin/python bench/gold/extract.py --draft   # before the settled entries

It shares no code with :mod:`ingestion.legal` (no import from it): its own line splitting,
its own Pasal headings, its own reading of an instruction. Its output is a *draft*: every
Pasal where it and the product disagree was read by hand, and the settled answer is what
``bench/gold/consolidation.json`` holds (its ``how`` field says which entries a person set).

For each chain it lists the original's Pasal (number and a locator of the wording: the
first and last words, found again in the file at bench time) and, per amending law, its
numbered instructions with what each does to which Pasal and, for a restated Pasal, the
locator of the new wording.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

DEFAULT_CORPUS = Path("/work/shared/corpus")
QUOTE_WORDS = 8

# The amendment chains of the development set, oldest first (amendments/README.md).
CHAINS: dict[str, list[str]] = {
    "Tipikor": ["uu_31_1999_tipikor.md", "uu_20_2001_perubahan_tipikor.md"],
    "Mahkamah Konstitusi": [
        "uu_24_2003_mahkamah_konstitusi.md",
        "uu_8_2011_perubahan_mahkamah_konstitusi.md",
    ],
    "Jalan": ["uu_38_2004_jalan.md", "uu_2_2022_perubahan_kedua_jalan.md"],
    "Kepabeanan": ["uu_10_1995_kepabeanan.md", "uu_17_2006_perubahan_kepabeanan.md"],
    "KUP": [
        "uu_6_1983_kup.md",
        "uu_9_1994_perubahan_kup.md",
        "uu_16_2000_perubahan_kedua_kup.md",
        "uu_28_2007_perubahan_ketiga_kup.md",
    ],
    "Pemerintahan Daerah": [
        "uu_23_2014_pemerintahan_daerah.md",
        "uu_9_2015_perubahan_kedua_pemerintahan_daerah.md",
    ],
}

# "Pasal 12", "Pasal 12A", "Pasal 12 A", and the forms the conversion's OCR left:
# "Pasa] 50", "Pasa1 9", "Pasai 3", "Pasa-l 17", "Pasal L6A".
HEADING = re.compile(
    r"^[\s\"“”]*Pas(?:al|a\]|a1|ai|a-l|aI)\s*(?P<no>[0-9LlIO]{1,4}(?:\s?[A-Z])?)[\s\"“”]*$"
)
INLINE_HEADING = re.compile(
    r"(?:^|(?<=[\"“”‘’:.;]\s)|(?<=[\"“”‘’:]))Pas(?:al|a\]|a1|ai|a-l)\s*"
    r"(?P<no>[0-9LlIO]{1,4}(?:\s?[A-Z](?![a-z]))?)\s+(?=\(1\)|[A-Z])"
)
STRUCTURE = re.compile(r"^\s*(?:BAB\s+[IVXLC]+|Bagian\s+Ke\w+|Paragraf\s+\d+)\b")
BODY_END = re.compile(
    r"^\s*(?:PENJELASAN\b|P E N J E L A S A N|Agar\s+setiap\s+orang|Ditetapkan\s+di|"
    r"Disahkan\s+di)"
)
CLOSING = re.compile(r"\bAgar\s+(?:supaya\s+)?setiap\s+orang\b")
ITEM = re.compile(
    r"(?:^|(?<=\s))(?P<n>\d{1,3}|[Il])(?:\s?\.)?\s+(?=(?:Ketentuan|Di\s?antara|Diantara|Pasal|"
    r"Penjelasan|Judul|Bab|BAB|Lampiran|Bagian|Sebutan|Kata|Frasa|Istilah|Seluruh|Menambah\w*|"
    r"Mengubah|Menghapus|Dalam\s+BAB|Dalam\s+Bab|Ayat|Sebelum|Sesudah|Setelah)\b)"
)
# An instruction whose number the conversion lost: "… berikut. Ketentuan Pasal 3 diubah
# sehingga …" (taken only between two numbered ones, with the number in between free).
UNNUMBERED = re.compile(
    r"(?:(?<=[.;:”\"]\s)|(?<=\n)|(?<=\d\s))(?=(?:Ketentuan|Di\s?antara)\s+(?:ketentuan\s+)?"
    r"(?:Pas\S{1,3}|Bab|BAB|Bagian)\s[^.:]{0,200}?(?:berbunyi|dihapus\s*\.))"
)
SKIP = 3  # item numbers the conversion may have lost
VERBS = {
    "delete": re.compile(r"\bdihapus(?:kan)?\b", re.I),
    "insert": re.compile(r"\bdisisip(?:kan)?\b|\bditambah(?:kan)?\b", re.I),
    "amend": re.compile(r"\bdi\s?ubah\b|\bdipecah\b", re.I),
}
HEAD_END = re.compile(r"sebagai\s+berikut\s*:?|berbunyi\s*:|\.(?=\s|$)", re.I)
PASAL_REF = re.compile(r"\bPas(?:al|a-l)\s*(?P<no>\d{1,4}\s?[A-Z]?)\b(?!\s*ayat)")
CATCHWORD = re.compile(r"(?:\.\s?){3}\s*$|…\s*$")


@dataclass
class Wording:
    """Where a wording is: its first and last words in ``file``, and the offset of the first
    in the file's folded content text (:func:`content_text`), since a Pasal's first words may
    open others too."""

    file: str
    first: str
    last: str
    at: int = -1
    chars: int = 0  # the folded wording's length


@dataclass
class GoldInstruction:
    number: int
    operation: str  # amend / insert / delete / other
    sentence: str
    pasal: list[str] = field(default_factory=list)  # the Pasal it changes, inserts or deletes
    wordings: dict[str, Wording] = field(default_factory=dict)  # restated Pasal → wording


def fold(text: str) -> str:
    return " ".join(text.split())


def normal_number(raw: str) -> str:
    """ "L6A" → "16A", "1O" → "10", "12 A" → "12A"."""
    raw = raw.replace(" ", "")
    digits = re.match(r"[0-9LlIO]+", raw)
    if digits is None:
        return raw
    fixed = digits.group().translate(str.maketrans("LlIO", "1110"))
    return fixed + raw[digits.end() :]


TRAILING_HEADING = re.compile(r"\s(?:Paragraf\s+\d+|Bagian\s+Ke\w+|BAB\s+[IVXLC]+)\b[^.;:]*$")
# "… atau 3. menghalangi… 3. menghalangi …": a catchword left inside a line, then its words.
REPEATED_CATCHWORD = re.compile(
    r"[“\"‘’']*(?P<words>[^\s.…]\S*(?: \S+){0,4}?)(?:\.\.\.|…)\s+(?=[“\"‘’']*(?P=words)(?!\w))"
)
INLINE_CATCHWORD = re.compile(
    r"(?<=[.;:])\s(?:\d{1,3}\s)?(?P<stem>(?:\d{1,3}\.\s|\(\d{1,3}[a-z]?\)\s|[a-z]\.\s)?[“\"]?[A-Za-z]"
    r"[\w ]{0,12}?)(?:…|\.{3})\s*$"
)


def content_lines(text: str) -> list[str]:
    """The file's lines without catchwords: a line ending in "..." whose words the next
    line starts with (the printed gazette's announcement of the next page)."""
    lines = [line.rstrip() for line in text.splitlines()]
    kept = []
    for index, line in enumerate(lines):
        if CATCHWORD.search(line) and len(line) < 120:
            stem = fold(re.sub(r"(?:\.\s?){3}\s*$|…\s*$", "", line))
            following = next((fold(x) for x in lines[index + 1 :] if x.strip()), "")
            if stem and following.startswith(stem):
                continue
        inline = INLINE_CATCHWORD.search(line)
        if inline:  # "… di dalam negeri. Pasal 19…": the catchword ends a line of text
            line = line[: inline.start()]
        kept.append(line)
    return kept


def content_text(text: str) -> str:
    """The file's text as the gold reads it: catchwords out, whitespace folded."""
    return REPEATED_CATCHWORD.sub("", fold("\n".join(content_lines(text))))


def anchored(wording: Wording, content: str, near: int) -> Wording:
    """``wording`` with the offset of its first words in ``content``, the occurrence at or
    after ``near`` (the reading position of the reader that found it)."""
    at = content.find(wording.first, near) if wording.first else -1
    if at < 0 and wording.first:
        at = content.find(wording.first)
    wording.at = at
    return wording


def locate(content: str, wording: dict[str, object]) -> str | None:
    """The folded run a locator names: ``chars`` characters from ``at``, which must open
    with ``first`` and end with ``last`` (else the file changed: None)."""
    first, last = str(wording["first"]), str(wording["last"])
    at, chars = int(wording.get("at", -1)), int(wording.get("chars", 0))  # type: ignore[call-overload]
    if at < 0 or not content.startswith(first, at):
        return None
    if not chars:  # set by hand with its first and last words only
        end = content.find(last, at) if last else len(content)
        return content[at : end + len(last)] if end >= 0 else None
    run = content[at : at + chars]
    return run if run.endswith(last) else None


def locator(file: str, text: str) -> Wording:
    text = TRAILING_HEADING.sub("", REPEATED_CATCHWORD.sub("", fold(text)))
    words = fold(text).strip(" \"“”'").split()
    while len(words) > 1 and (
        words[-1] in ("“", '"')
        or (re.fullmatch(r"\d{1,2}\.?|[a-z]\.", words[-1]) and words[-2][-1] in '.;:”"')
    ):
        words.pop()  # the next instruction's number, or an opening quote, ends the run
    if not words:
        return Wording(file, "", "")  # a heading whose text the conversion lost
    words[-1] = words[-1].rstrip("”\"'’")
    return Wording(
        file,
        " ".join(words[:QUOTE_WORDS]),
        " ".join(words[-QUOTE_WORDS:]),
        chars=len(" ".join(words)),
    )


def split_pasal(lines: list[str]) -> list[tuple[str, str]]:
    """(number, wording) of each Pasal under a heading line, in order, up to the body's end."""
    found: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for line in lines:
        if BODY_END.match(line):
            break
        heading = HEADING.match(line)
        if heading:
            number = normal_number(heading.group("no"))
            if number == "1" and found:
                break  # numbering starts again: the Penjelasan's "Pasal 1"
            current = []
            found.append((number, current))
            continue
        closing = CLOSING.search(line)
        if closing and current is not None:
            current.append(line[: closing.start()])
            break
        if STRUCTURE.match(line):
            current = None  # a BAB/Bagian heading and its title belong to no Pasal
            continue
        if current is not None and line.strip():
            current.append(line)
    return [(number, "\n".join(body)) for number, body in found]


def pasal_i(lines: list[str]) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.strip() == "Pasal I")
    end = next(
        (i for i, line in enumerate(lines[start + 1 :], start + 1) if line.strip() == "Pasal II"),
        len(lines),
    )
    return lines[start + 1 : end]


def instructions(file: str, lines: list[str]) -> list[GoldInstruction]:
    text = "\n".join(pasal_i(lines))
    candidates = []
    for match in ITEM.finditer(text):
        raw = match.group("n")
        number = 1 if raw in ("I", "l") else int(raw)
        candidates.append((number, match.start(), "." in match.group(0)))
    starts = increasing_run(candidates)
    starts = with_unnumbered(text, starts)
    result = []
    for index, (number, at) in enumerate(starts):
        end = starts[index + 1][1] if index + 1 < len(starts) else len(text)
        result.append(read_instruction(file, number, text[at:end]))
    return result


def increasing_run(candidates: list[tuple[int, int, bool]]) -> list[tuple[int, int]]:
    """The longest run of item numbers rising in text order by steps of 1 to SKIP + 1: the
    instructions, whatever numbered lists their restated wording holds."""
    best: list[list[tuple[int, int]]] = []
    for number, at, dotted in candidates:
        chain: list[tuple[int, int]] = [(number, at)] if number <= SKIP + 1 else []
        for earlier in filter(None, best):
            last = earlier[-1][0]
            step_ok = 1 <= number - last <= SKIP + 1 and (dotted or number == last + 1)
            if step_ok and len(earlier) + 1 > len(chain):
                chain = [*earlier, (number, at)]
        best.append(chain)
    return max(best, key=len, default=[])


def with_unnumbered(text: str, starts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Add the instruction sentences whose number the conversion lost, numbered after the
    item before them (a sentence right after a numbered item's number is that item)."""
    numbered = {at for _, at in starts}
    extra = [
        m.start()
        for m in UNNUMBERED.finditer(text)
        if not any(0 <= m.start() - at <= 8 for at in numbered)
    ]
    merged = sorted([(at, n) for n, at in starts] + [(at, None) for at in extra])
    result: list[tuple[int, int]] = []
    for at, number in merged:
        previous = result[-1][0] if result else 0
        result.append((number if number is not None and number > previous else previous + 1, at))
    return result


def read_instruction(file: str, number: int, item: str) -> GoldInstruction:
    item = re.sub(r"^(?:\d{1,3}|[Il])(?:\s?\.)?\s+", "", item)
    end = HEAD_END.search(item)
    sentence = item[: end.start()] if end else item[:400]
    body = item[end.end() :] if end else ""
    operation = next((op for op, verb in VERBS.items() if verb.search(sentence)), "other")
    if VERBS["amend"].search(sentence):
        operation = "amend"
    elif VERBS["insert"].search(sentence):
        operation = "insert"
    gold = GoldInstruction(number, operation, fold(sentence))
    restated = restated_pasal(body)
    if operation == "delete" and not restated:
        gold.pasal = [normal_number(m.group("no")) for m in PASAL_REF.finditer(sentence)]
        return gold
    if not restated and body.strip():
        named = [normal_number(m.group("no")) for m in PASAL_REF.finditer(sentence)]
        if len(set(named)) == 1:
            restated = [(named[0], body)]
    for pasal, wording in restated:
        gold.pasal.append(pasal)
        gold.wordings[pasal] = locator(file, wording)
    return gold


# "… berikut: “Pasal 37... ‘’Pasal 37 (1) …": a catchword the conversion left mid-line.
MID_CATCHWORD = re.compile(r"[“\"‘’]*Pasal\s\d{1,3}(?:\s?[A-Z])?(?:\.{3}|…)\s*")


def restated_pasal(body: str) -> list[tuple[str, str]]:
    body = MID_CATCHWORD.sub("", body)
    lines: list[str] = []
    for line in body.splitlines():
        # Inline headings ("… berikut: “Pasal 12 A (1) …") go on a line of their own.
        parts = INLINE_HEADING.split(line)
        if len(parts) == 1:
            lines.append(line)
            continue
        lines.append(parts[0])
        for number, rest in zip(parts[1::2], parts[2::2], strict=True):
            lines.extend([f"Pasal {number}", rest])
    return split_pasal(lines)


def chain_draft(corpus: Path, name: str, files: list[str]) -> dict[str, object]:
    """The chain's final state Pasal by Pasal: the instructions applied in order."""
    folder = corpus / "amendments"
    raw = (folder / files[0]).read_text(encoding="utf-8")
    cursor = Cursor(content_text(raw))
    final: dict[str, dict[str, object]] = {}
    originals: dict[str, dict[str, object]] = {}
    for number, wording in split_pasal(content_lines(raw)):
        located = asdict(cursor.anchor(locator(files[0], wording)))
        originals.setdefault(number, located)
        final.setdefault(number, {"state": "original", "by": None, "wording": located})
    items = {}
    for file in files[1:]:
        raw = (folder / file).read_text(encoding="utf-8")
        read = instructions(file, content_lines(raw))
        items[file] = max((i.number for i in read), default=0)
        cursor = Cursor(content_text(raw))
        for instruction in read:
            apply(final, file, instruction, cursor)
    return {
        "chain": name,
        "original": files[0],
        "items": items,
        "pasal": final,
        "originals": originals,
    }


@dataclass
class Cursor:
    """Reading a file's content text in order: each wording is anchored after the last."""

    content: str
    position: int = 0

    def anchor(self, wording: Wording) -> Wording:
        anchored(wording, self.content, self.position)
        if wording.at >= 0:
            self.position = wording.at + len(wording.first)
        return wording


def apply(
    final: dict[str, dict[str, object]], file: str, instruction: GoldInstruction, cursor: Cursor
) -> None:
    where = f"{file} #{instruction.number}"
    for pasal, wording in instruction.wordings.items():
        cursor.anchor(wording)
        state = "amended" if pasal in final and final[pasal]["state"] != "deleted" else "inserted"
        if pasal in final and final[pasal]["state"] == "inserted":
            state = "inserted"
        final[pasal] = {"state": state, "by": where, "wording": asdict(wording)}
    if instruction.operation == "delete" and not instruction.wordings:
        for pasal in instruction.pasal:
            final[pasal] = {"state": "deleted", "by": where, "wording": None}


def settle(
    corpus: Path, drafts: list[dict[str, object]], settled: dict[str, object]
) -> dict[str, object]:
    """The gold: the drafts with the entries a person set by reading (``settled.json``)."""
    items: dict[str, int] = settled.get("items", {})  # type: ignore[assignment]
    by_chain: dict[str, dict[str, dict[str, object]]] = settled["pasal"]  # type: ignore[assignment]
    for draft in drafts:
        counts: dict[str, int] = draft["items"]  # type: ignore[assignment]
        counts.update({f: n for f, n in items.items() if f in counts})
        final: dict[str, dict[str, object]] = draft["pasal"]  # type: ignore[assignment]
        for number, entry in by_chain.get(str(draft["chain"]), {}).items():
            entry = dict(entry)
            if entry["wording"] == "extract":
                source = draft["originals"] if entry["state"] == "original" else final  # type: ignore[index]
                found = source.get(number, {})  # type: ignore[attr-defined]
                entry["wording"] = found.get("wording", found) if found else None
            elif entry["wording"]:
                wording = Wording(**entry["wording"])  # type: ignore[arg-type]
                raw = (corpus / "amendments" / wording.file).read_text(encoding="utf-8")
                # "chars" set by hand when the last words also end an earlier ayat.
                entry["wording"] = asdict(anchored(wording, content_text(raw), 0))
            entry["settled"] = True
            final[number] = entry
    for draft in drafts:
        draft.pop("originals", None)
    return {"how": HOW, "chains": drafts}


HOW = (
    "Built by bench/gold/extract.py, a reader written apart from the product's (it imports "
    "nothing from ingestion/), applied instruction by instruction to the original; then "
    "every Pasal where it and the product's reader disagreed was read in the source by a "
    "person and settled (bench/gold/settled.json, entries marked 'settled', each with why). "
    "A wording is located by its first and last words in the file; null: state only."
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--chain", action="append")
    parser.add_argument("--draft", action="store_true", help="print the draft, unsettled")
    args = parser.parse_args()
    names = args.chain or list(CHAINS)
    drafts = [chain_draft(args.corpus, name, CHAINS[name]) for name in names]
    if args.draft:
        json.dump(drafts, sys.stdout, ensure_ascii=False, indent=1)
        return 0
    settled = json.loads((Path(__file__).parent / "settled.json").read_text(encoding="utf-8"))
    json.dump(settle(args.corpus, drafts, settled), sys.stdout, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
