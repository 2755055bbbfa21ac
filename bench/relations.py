"""Relation extraction quality on the corpus regulations labelled by hand.

Run from the repository root: ``.venv/bin/python bench/relations.py [--list]``.

Each labelled regulation is parsed and chunked by the pipeline's own stages, then read by
:func:`ingestion.legal.relations.extract_relations`. Beside it, in the same run, the
baseline a user would write first: every regulation mentioned in a sentence that says
"dicabut"/"tidak berlaku" (repeals) or "diubah"/"Perubahan atas" (amends), anywhere in the
text. Gold labels are (kind, target) pairs; a partial repeal ("sepanjang …") is not a
repeal. Targets our citation parser cannot name (Staatsblad ordinances without a number)
stay in the gold set as misses.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")

import django

django.setup()

from ingestion.legal.citation import find_regulations, parse_regulation  # noqa: E402
from ingestion.legal.relations import SectionText, extract_relations, flatten  # noqa: E402
from ingestion.pipeline.chunk import chunk_document  # noqa: E402
from ingestion.pipeline.parse import ParseLimits, parse  # noqa: E402

CORPUS = Path("/work/shared/corpus")
R, A = "repeals", "amends"
UU13 = [
    "Ordonansi Stb. 1887 No. 8",
    "Ordonansi Stb. 1925 No. 647",
    "Ordonansi Stb. 1926 No. 87",
    "Ordonansi Stb. 1936 No. 208",
    "Ordonansi Stb. 1939 No. 545",
    "Ordonansi 9/1949",
    "UU 1/1951",
    "UU 21/1954",
    "UU 3/1958",
    "UU 8/1961",
    "UU 7 Pnps/1963",
    "UU 14/1969",
    "UU 25/1997",
    "UU 11/1998",
    "UU 28/2000",
]
GOLD: dict[str, set[tuple[str, str]]] = {
    "docs/uu_13_2003_ketenagakerjaan.pdf": {(R, c) for c in UU13},
    "docs/uu_cipta_kerja_pages_3-13.pdf": {
        (A, "UU 26/2007"),
        (A, "UU 27/2007"),
        (A, "UU 32/2014"),
        (A, "UU 4/2011"),
    },
    "docs/pergub_bali_1_2021_kelas_jabatan.pdf": {(A, "Pergub Bali 29/2019")},
    "docs/perda_banjarnegara_8_2025_abstrak.pdf": {(A, "Perda Banjarnegara 8/2023")},
    "docs/perba_7_2019_izin_bekerja_MIXED.pdf": {(R, "Perka Pengawas Tenaga Nuklir 6/2013")},
    "docs/perpres_60_2019_keselamatan_nuklir_SCAN_OCR.pdf": set(),
    "docs/pp_37_2021_jkp.md": set(),
    "galqa/docs/pp_10_2020.txt": {(R, "PP 4/2013")},
    "galqa/docs/pp_34_2021.txt": {(R, "Perpres 20/2018")},
    "galqa/docs/pp_59_2021.txt": {
        (R, "PP 3/2013"),
        (R, "PP 5/2013"),
        (R, "PP 4/2015"),
        (R, "Perpres 64/2011"),
    },
    "galqa/docs/pp_94_2021.txt": {(R, "PP 6/1974")},
    **{
        f"galqa/docs/{name}.txt": set()
        for name in (
            "pp_22_2022 pp_35_2021 pp_36_2021 pp_37_2021 pp_44_2015 pp_45_2015 pp_46_2015"
            " pp_49_2020 pp_4_2015 pp_60_2020 pp_88_2019"
        ).split()
    },
}
FORMATS = {".pdf": "pdf", ".md": "md", ".txt": "txt"}

Extractor = Callable[[str, list[SectionText]], set[tuple[str, str]]]


def sections(path: Path) -> list[SectionText]:
    parsed = parse(path, FORMATS[path.suffix], ParseLimits())
    drafts = chunk_document(parsed.blocks, budget_tokens=350, overlap_tokens=40)
    return [SectionText(d.heading_path_text, d.text, d.page_from) for d in drafts]


def ours(name: str, found: list[SectionText]) -> set[tuple[str, str]]:
    relations = extract_relations(name, found, parse_regulation(Path(name).stem))
    return {(r.kind, r.citation) for r in relations}


_SENTENCE = re.compile(r"(?<=[.;])\s+")


def baseline(name: str, found: list[SectionText]) -> set[tuple[str, str]]:
    own = parse_regulation(Path(name).stem)
    text = flatten("\n".join(s.text for s in found))
    result: set[tuple[str, str]] = set()
    for sentence in _SENTENCE.split(text):
        lowered = sentence.lower()
        kind = R if ("dicabut" in lowered or "tidak berlaku" in lowered) else None
        if kind is None and ("diubah" in lowered or "perubahan atas" in lowered):
            kind = A
        if kind is None:
            continue
        for ref, _span in find_regulations(sentence):
            if ref.short and ref.tahun and (own is None or ref.key[:3] != own.key[:3]):
                result.add((kind, ref.short))
    return result


def score(gold: set[tuple[str, str]], found: set[tuple[str, str]]) -> tuple[int, int, int]:
    return len(gold & found), len(found - gold), len(gold - found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--list", action="store_true", help="print every relation found")
    args = parser.parse_args()
    totals = {"ours": [0, 0, 0], "baseline": [0, 0, 0]}
    timing = {"ours": 0.0, "baseline": 0.0}
    print(f"{'regulation':44} {'gold':>4} | {'ours TP/FP/FN':>13} | {'baseline TP/FP/FN':>17}")
    for name, gold in GOLD.items():
        path = CORPUS / name
        if not path.exists():
            print(f"{name:44} absent")
            continue
        found = sections(path)
        row = []
        for label, extractor in (("ours", ours), ("baseline", baseline)):
            started = time.perf_counter()
            result = extractor(path.name, found)
            timing[label] += time.perf_counter() - started
            tp, fp, fn = score(gold, result)
            totals[label] = [a + b for a, b in zip(totals[label], (tp, fp, fn), strict=True)]
            row.append(f"{tp}/{fp}/{fn}")
            if args.list and label == "ours":
                for kind, citation in sorted(result):
                    mark = "ok" if (kind, citation) in gold else "WRONG"
                    print(f"    {kind:8} {citation:28} {mark}")
                for kind, citation in sorted(gold - result):
                    print(f"    {kind:8} {citation:28} missed")
        print(f"{Path(name).name:44} {len(gold):>4} | {row[0]:>13} | {row[1]:>17}")
    print()
    print(
        f"{'extractor':10} {'TP':>4} {'FP':>4} {'FN':>4} {'precision':>9} {'recall':>7} {'ms':>8}"
    )
    for label, (tp, fp, fn) in totals.items():
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        ms = timing[label] * 1000
        print(f"{label:10} {tp:>4} {fp:>4} {fn:>4} {precision:>9.3f} {recall:>7.3f} {ms:>8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
