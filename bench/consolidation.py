"""Consolidation quality and cost on the amendment chains (issue 20).

Run from the repository root::

    .venv/bin/python bench/consolidation.py [--corpus DIR] [--pairs GITDIR] [--limit N] [--search]

For each development chain (the table in ``<corpus>/amendments/README.md``) one line: the
numbered instructions found, parsed, applied, unparsed and in conflict; the share of
amended and inserted Pasal whose consolidated wording equals (whitespace folded) the
wording the last amending law restates (goal ≥ 0.97); the share of Pasal an instruction
deletes that end deleted (goal 1.00); the share of Pasal no instruction names that are left
untouched (goal 1.00); and the milliseconds to read the amending regulations and to split
the original and apply the chain. Then a total.

The expected figures come from the instructions themselves (what a reader checking the
amending law by hand would compare against); the consolidated side is what
:func:`~ingestion.legal.amendments.apply.consolidate` built.

``--pairs GITDIR`` reads every regulation of a checkout (or a bare git directory) of
mblonyox/data-peraturan whose title says "Perubahan … atas", and prints the share of its
numbered instructions parsed (goal ≥ 0.95), with the rest counted by form.

``--ingest`` also times the pipeline's parse + chunk of each chain's amending files (the
issue's cost goal: consolidation adds ≤ 10 % to an amending regulation's ingest time; the
ingest time there also has embedding, so the share printed is an upper bound).

``--hand-check FILE`` (with ``--pairs``) writes a seeded sample of ``--sample`` Pasal that an
applied amendment changed, inserted or deleted: the amending and target files and the
consolidated wording, for a person to check against the amending law's own text.

``--search`` calls ``bench/consolidation_search.py``'s ``main(chains)`` when that module
exists (search over the consolidated chains is measured there).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion.legal.amendments.apply import (
    Consolidation,
    PasalState,
    Version,
    consolidate,
    in_part,
)
from ingestion.legal.amendments.model import AmendmentText, Operation
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments, regulation_dates
from ingestion.legal.amendments.text import normalise_space
from ingestion.legal.citation import RegulationRef

DEFAULT_CORPUS = Path("/work/shared/corpus")
_FILE_REF_RE = re.compile(r"^(?P<jenis>uu|pp)_(?P<nomor>\d+)_(?P<tahun>\d{4})")
_JENIS = {"uu": "Undang-Undang", "pp": "Peraturan Pemerintah"}


@dataclass
class Chain:
    """One development chain: the original and its amendments, oldest first."""

    name: str
    original: Path
    amendments: list[Path]


@dataclass
class Figures:
    found: int = 0
    parsed: int = 0
    applied: int = 0
    unparsed: int = 0
    conflict: int = 0
    restated: int = 0
    restated_equal: int = 0
    deleted: int = 0
    deleted_marked: int = 0
    untouched: int = 0
    untouched_kept: int = 0
    ms: float = 0.0
    ms_read: float = 0.0  # reading the amending regulations
    ms_apply: float = 0.0  # splitting the original into Pasal and applying the chain
    unequal: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        for name in self.__dataclass_fields__:
            if name == "unequal":
                continue
            setattr(self, name, getattr(self, name) + getattr(other, name))


def file_ref(path: Path) -> RegulationRef:
    """``uu_20_2001_….md`` → UU 20/2001 (the corpus names its files so)."""
    match = _FILE_REF_RE.match(path.name)
    if match is None:
        return RegulationRef(None)
    return RegulationRef(_JENIS[match["jenis"]], match["nomor"], match["tahun"])


def chains(corpus: Path) -> list[Chain]:
    """The chain table of ``<corpus>/amendments/README.md``."""
    folder = corpus / "amendments"
    found = []
    for line in (folder / "README.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[1].endswith(".md"):
            continue
        amendments = [folder / name.strip() for name in cells[2].split(",") if name.strip()]
        found.append(Chain(cells[0], folder / cells[1], amendments))
    return found


def run_chain(chain: Chain) -> tuple[Figures, Consolidation]:
    """Read the chain's amendments, split the original, apply; timed in two parts."""
    original_text = chain.original.read_text()
    amending_texts = [(file_ref(path), path.read_text()) for path in chain.amendments]
    original_ref = file_ref(chain.original)
    started = time.perf_counter()
    texts: list[AmendmentText] = []
    refs: list[RegulationRef] = []
    for ref, text in amending_texts:
        read = read_amendments(text, ref)
        mine = [a for a in read if a.target and a.target.key == original_ref.key] or read[:1]
        texts.extend(mine)
        refs.extend([ref] * len(mine))
    read_done = time.perf_counter()
    original = pasal_texts(original_text)
    enacted, effective = regulation_dates(original_text)
    result = consolidate(original, effective or enacted, texts, refs)
    finished = time.perf_counter()
    figures = Figures(
        ms=(finished - started) * 1000,
        ms_read=(read_done - started) * 1000,
        ms_apply=(finished - read_done) * 1000,
    )
    _score(figures, original, texts, result)
    return figures, result


def _score(
    figures: Figures, original: list, texts: list[AmendmentText], result: Consolidation
) -> None:
    instructions = [i for text in texts for i in text.instructions]
    figures.found = len(instructions)
    figures.parsed = sum(i.operation is not None for i in instructions)
    figures.applied = len(result.applied)
    figures.unparsed = len(result.unparsed)
    figures.conflict = len(result.conflicts)
    expected: dict[str, str] = {}
    deleted: set[str] = set()
    named: set[str] = set()
    for instruction in instructions:
        if instruction.operation is None:
            continue
        for new in instruction.new_pasal:
            expected[new.number] = new.text
            deleted.discard(new.number)
            named.add(new.number)
        for target in instruction.targets:
            if target.pasal:
                named.add(target.pasal)
            if target.bab and not target.pasal and instruction.new_pasal:
                restated = {p.number for p in instruction.new_pasal}
                gone = {
                    p.number
                    for p in original
                    if in_part(p, target)
                    and p.number not in restated
                    and not re.search(rf"\bPasal\s+{re.escape(p.number)}\b", instruction.body)
                }
                named |= gone  # a Bab restated whole: what it leaves out is deleted
                if instruction.operation is Operation.REPLACE:
                    deleted |= gone
            if instruction.operation is not Operation.DELETE or instruction.new_pasal:
                continue
            if target.pasal and not (target.ayat or target.huruf or target.angka):
                deleted.add(target.pasal)
                expected.pop(target.pasal, None)
            elif target.bab and not target.pasal:
                gone = {p.number for p in original if in_part(p, target)}
                named |= gone
                deleted |= gone
                named |= gone
    final = {h.number: h.current for h in result.pasals}
    figures.restated = len(expected)
    figures.restated_equal = sum(
        1
        for number, text in expected.items()
        if number in final and normalise_space(final[number].text) == normalise_space(text)
    )
    figures.unequal = [
        n
        for n, t in expected.items()
        if n not in final or normalise_space(final[n].text) != normalise_space(t)
    ]
    figures.deleted = len(deleted)
    figures.deleted_marked = sum(
        1 for n in deleted if n in final and final[n].state is PasalState.DELETED
    )
    untouched = [p for p in original if p.number not in named]
    figures.untouched = len(untouched)
    figures.untouched_kept = sum(
        1
        for p in untouched
        if final.get(p.number) is not None
        and final[p.number].state is PasalState.ORIGINAL
        and final[p.number].text == p.text
    )


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.2f}" if whole else "  — "


def _line(name: str, f: Figures) -> str:
    return (
        f"{name:<22} found {f.found:>4} parsed {f.parsed:>4} applied {f.applied:>4} "
        f"unparsed {f.unparsed:>3} conflict {f.conflict:>3} | "
        f"restated {_share(f.restated_equal, f.restated)} ({f.restated_equal}/{f.restated}) "
        f"deleted {_share(f.deleted_marked, f.deleted)} ({f.deleted_marked}/{f.deleted}) "
        f"untouched {_share(f.untouched_kept, f.untouched)} ({f.untouched_kept}/{f.untouched}) "
        f"| {f.ms:6.0f} ms (read {f.ms_read:.0f} + apply {f.ms_apply:.0f})"
    )


def ingest_ms(chain: Chain) -> float:
    """Parse + chunk of the chain's amending files by the pipeline's own stages (no embedding,
    so the share printed against it is an upper bound of what consolidation adds)."""
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    import django

    django.setup()
    from ingestion.pipeline.chunk import chunk_document
    from ingestion.pipeline.parse import ParseLimits, parse

    started = time.perf_counter()
    for path in chain.amendments:
        parsed = parse(path, "md", ParseLimits())
        chunk_document(parsed.blocks, budget_tokens=350, overlap_tokens=40)
    return (time.perf_counter() - started) * 1000


def dev_report(corpus: Path, verbose: bool, ingest: bool = False) -> list[Chain]:
    found = chains(corpus)
    total = Figures()
    ingest_total = 0.0
    for chain in found:
        figures, result = run_chain(chain)
        total.add(figures)
        note = (
            ""
            if result.chain_complete
            else "  missing: " + ", ".join(str(r.short) for r in result.missing)
        )
        if ingest:
            spent = ingest_ms(chain)
            ingest_total += spent
            note = (
                f"; parse+chunk {spent:.0f} ms, read/parse+chunk {figures.ms_read / spent:.0%}"
                + note
            )
        print(_line(chain.name, figures) + note)
        if verbose:
            for instruction, reason in result.conflicts:
                print(f"    conflict {instruction.source}: {reason}")
            for instruction in result.unparsed:
                print(f"    unparsed {instruction.source}: {instruction.reason}")
            for number in figures.unequal:
                print(f"    restated Pasal {number} differs from the consolidated wording")
    share = (
        f"; parse+chunk {ingest_total:.0f} ms, read/parse+chunk {total.ms_read / ingest_total:.0%}"
        if ingest
        else ""
    )
    print(_line("TOTAL", total) + share)
    return found


# --- the public pairs --------------------------------------------------------------------

_AMENDING_TITLE_RE = re.compile(r"perubahan\b.{0,40}?\batas\b", re.IGNORECASE | re.DOTALL)


def _pair_files(source: Path) -> Iterator[tuple[str, str]]:
    """(path, text) of every ``uu/`` and ``pp/`` markdown file of a checkout or git dir."""
    if (source / "uu").is_dir() or (source / "pp").is_dir():
        for path in sorted([*source.glob("uu/*/*.md"), *source.glob("pp/*/*.md")]):
            yield str(path.relative_to(source)), path.read_text(errors="replace")
        return
    names = subprocess.run(
        ["git", f"--git-dir={source}", "ls-tree", "-r", "--name-only", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    wanted = [n for n in names if re.match(r"(?:uu|pp)/\d{4}/\d+\.md$", n)]
    with subprocess.Popen(
        ["git", f"--git-dir={source}", "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    ) as batch:
        assert batch.stdin is not None and batch.stdout is not None
        for name in wanted:
            batch.stdin.write(f"HEAD:{name}\n".encode())
            batch.stdin.flush()
            header = batch.stdout.readline().split()
            if len(header) < 3:
                continue
            data = batch.stdout.read(int(header[2]))
            batch.stdout.read(1)
            yield name, data.decode("utf-8", errors="replace")


def _form(text: str) -> str:
    """A short name for an instruction's form: its first words, numbers folded."""
    words = re.sub(r"\d+\w*|\([^)]*\)", "N", " ".join(text.split()[1:7]))
    return words[:60] or "(kosong)"


def pairs_report(source: Path, limit: int | None, sample: HandCheck | None = None) -> None:
    """Instructions parsed over every amending regulation; applied where the target is there."""
    regulations = amending = items = parsed = with_target = 0
    unparsed_forms: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    conflicts: Counter[str] = Counter()
    applied = Figures()
    started = time.perf_counter()
    files = dict(_pair_files(source))
    for name, text in files.items():
        regulations += 1
        if not _AMENDING_TITLE_RE.search(text[:600]):
            continue
        own = RegulationRef(_JENIS[name[:2]], Path(name).stem, name[3:7])
        amending += 1
        for amendment in read_amendments(text, own):
            for instruction in amendment.instructions:
                items += 1
                if instruction.operation is not None:
                    parsed += 1
                else:
                    reasons[instruction.reason] += 1
                    unparsed_forms[_form(instruction.text)] += 1
            target_text = files.get(_pair_path(amendment.target))
            if target_text is None:
                continue
            with_target += 1
            figures, result = _apply_pair(target_text, amendment, own)
            applied.add(figures)
            if sample is not None:
                sample.collect(name, _pair_path(amendment.target), result)
            for _instruction, reason in result.conflicts:
                conflicts[re.sub(r"\d+\w*|\([^)]*\)|\"[^\"]*\"", "N", reason)] += 1
        if limit and amending >= limit:
            break
    seconds = time.perf_counter() - started
    print(
        f"pairs: {regulations} regulations read, {amending} amending; {items} numbered "
        f"instructions, parsed {_share(parsed, items)} ({parsed}/{items}) in {seconds:.1f} s"
    )
    for reason, count in reasons.most_common(6):
        print(f"  {count:>5}  {reason}")
    print("  unparsed by form (first words):")
    for form, count in unparsed_forms.most_common(20):
        print(f"  {count:>5}  {form}")
    print(_line(f"{with_target} pairs applied", applied))
    for reason, count in conflicts.most_common(6):
        print(f"  {count:>5}  conflict: {reason}")
    if sample is not None:
        sample.write()


@dataclass
class HandCheck:
    """A seeded sample of the Pasal an amendment changed, written for a person to read.

    The gold is the reader: each entry names the amending file and the target file and
    shows the consolidated wording; the reader opens the amending law's own text and says
    whether that is what it enacted. The bench does not judge the entries itself.
    """

    size: int
    seed: int
    path: Path
    changed: list[tuple[str, str, Version]] = field(default_factory=list)

    def collect(self, amending: str, target: str, result: Consolidation) -> None:
        for history in result.pasals:
            last = history.versions[-1]
            if last.state is not PasalState.ORIGINAL:
                self.changed.append((amending, target, last))

    def write(self) -> None:
        picked = random.Random(self.seed).sample(self.changed, min(self.size, len(self.changed)))
        lines = [f"# {len(picked)} of {len(self.changed)} changed Pasal (seed {self.seed})", ""]
        for n, (amending, target, version) in enumerate(picked, 1):
            source = version.instruction.source if version.instruction else "?"
            lines += [
                f"## {n}. Pasal {version.number} of {target}, {version.state} by {amending}",
                f"instruction: {source}",
                "",
                "```",
                version.text.strip() or "(dihapus)",
                "```",
                "",
            ]
        self.path.write_text("\n".join(lines))
        print(
            f"hand-check sample: {len(picked)} of {len(self.changed)} changed Pasal → {self.path}"
        )


def _pair_path(target: RegulationRef | None) -> str:
    if target is None or not (target.nomor and target.tahun) or target.abbr not in ("UU", "PP"):
        return ""
    return f"{str(target.abbr).lower()}/{target.tahun}/{target.nomor}.md"


def _apply_pair(
    target_text: str, amendment: AmendmentText, own: RegulationRef
) -> tuple[Figures, Consolidation]:
    """One amendment applied alone to its target (the chain's other links may be absent)."""
    started = time.perf_counter()
    original = pasal_texts(target_text)
    result = consolidate(original, None, [amendment], [own])
    spent = (time.perf_counter() - started) * 1000
    figures = Figures(ms=spent, ms_apply=spent)
    _score(figures, original, [amendment], result)
    return figures, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--pairs", type=Path, help="data-peraturan checkout or git dir")
    parser.add_argument("--limit", type=int, help="amending regulations read from --pairs")
    parser.add_argument("--search", action="store_true", help="run bench/consolidation_search.py")
    parser.add_argument(
        "--ingest", action="store_true", help="also time parse+chunk of the amending files"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="list conflicts, unparsed")
    parser.add_argument(
        "--hand-check",
        type=Path,
        help="with --pairs: write a seeded sample of changed Pasal here, for a person to read",
    )
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    found = dev_report(args.corpus, args.verbose, args.ingest)
    if args.pairs:
        sample = args.hand_check and HandCheck(args.sample, args.seed, args.hand_check)
        pairs_report(args.pairs, args.limit, sample or None)
    if args.search:
        hook = Path(__file__).with_name("consolidation_search.py")
        if not hook.exists():
            print("search: bench/consolidation_search.py is not there yet")
            return
        spec = importlib.util.spec_from_file_location("consolidation_search", hook)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main(found)


if __name__ == "__main__":
    main()
