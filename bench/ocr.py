"""OCR benchmark: CER per degradation level and how well the confidence flags bad lines.

Run from the repository root (about 3-6 minutes on 2 cores with the defaults):

    .venv/bin/python bench/ocr.py [--pages 6] [--bad-cer 0.05] [--dump lines.jsonl]
    .venv/bin/python bench/ocr.py --from-dump lines.jsonl   # re-score without OCR
    .venv/bin/python bench/ocr.py --peers-only [--corpus-pages 17]  # beside Tesseract only
    .venv/bin/python bench/ocr.py --peers-only --det-model D.onnx [--rec-model R.onnx]
        # adds a row for those model files beside the default ones, in the same run

The run ends with one table of our engine beside Tesseract (``tesseract -l ind``, from
``make system-deps``) on the same pages: CER on synthetic held-out pages and s/page on the
corpus scans (see ``bench/ocr_peers.py``).

Text comes from the GALQA regulations: even-indexed documents are the tuning split (the
confidence weights were fitted on it, see bench/ocr_fit.py), odd-indexed ones are held out
and are what the headline figures report. A line is "bad" when its CER exceeds --bad-cer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ocr_metrics import (
    ScoredLine,
    auroc,
    best_threshold,
    cer,
    flag_stats,
    match_lines,
)
from ocr_synth import LEVELS, UPSIDE_DOWN, Degradation, make_page, split_sources

from ingestion.pipeline.ocr.confidence import line_confidence
from ingestion.pipeline.ocr.local import SessionChoice

DEFAULT_REVIEW_THRESHOLD = 0.75  # settings.OCR_REVIEW_THRESHOLD default


def engine_choice(args: argparse.Namespace) -> SessionChoice:
    """The engine's session choice from the command line (defaults: the shipped ones)."""
    base = SessionChoice()
    return SessionChoice(
        threads=args.threads or base.threads,
        spinning=args.spinning,
        arena=not args.no_arena,
        max_side=args.max_side or base.max_side,
        rec_batch=args.rec_batch or base.rec_batch,
        rec_min_width=args.rec_min_width or base.rec_min_width,
        line_parallel=not args.intra_op,
        fast_rec=not args.no_fast_rec,
        exact_below=base.exact_below if args.exact_below is None else args.exact_below,
        sure_above=base.sure_above if args.sure_above is None else args.sure_above,
    )


def model_files(args: argparse.Namespace) -> tuple[Path | None, Path | None]:
    """--det-model/--rec-model: the full run reads with them; --peers-only adds a row."""
    return args.det_model, args.rec_model


def model_label(models: tuple[Path | None, Path | None]) -> str:
    det, rec = models
    return f"det={det.stem if det else 'float'} rec={rec.stem if rec else 'float'}"


def cpu_line(choice: SessionChoice | None = None) -> str:
    """The CPU model and its vector flags, printed beside every figure (issue #24)."""
    model, flags = "unknown CPU", set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and model == "unknown CPU":
                model = line.split(":", 1)[1].strip()
            elif line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    except OSError:
        pass
    wanted = {
        "AVX2": "avx2",
        "AVX-512": "avx512f",
        "VNNI": "avx512_vnni",
        "AVX-VNNI": "avx_vnni",
        "AMX": "amx_int8",
    }
    marks = " ".join(f"{k}{'+' if v in flags else '-'}" for k, v in wanted.items())
    load = "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())
    text = f"CPU: {model}, {os.cpu_count()} cores, {marks}; {load}"
    if choice:
        text += (
            f"; session threads={choice.threads} spinning={choice.spinning} "
            f"arena={choice.arena} max_side={choice.max_side} rec_batch={choice.rec_batch} "
            f"rec_min_width={choice.rec_min_width} line_parallel={choice.line_parallel} "
            f"fast_rec={choice.fast_rec} exact_below={choice.exact_below} "
            f"known_below={choice.known_below} sure_above={choice.sure_above}"
        )
    return text


def run_ocr(
    pages: int,
    choice: SessionChoice | None = None,
    models: tuple[Path | None, Path | None] = (None, None),
) -> tuple[list[ScoredLine], list[dict[str, object]]]:
    from PIL import Image

    from ingestion.pipeline.ocr.images import MIN_INK, MIN_PAGE_CHARS, PageImage, ink_share
    from ingestion.pipeline.ocr.local import LocalOcrEngine

    engine = LocalOcrEngine(options=choice, det_model=models[0], rec_model=models[1])
    sources = split_sources()
    lines: list[ScoredLine] = []
    page_rows: list[dict[str, object]] = []
    for split in ("tune", "report"):
        for i in range(pages):
            levels: list[Degradation] = list(LEVELS)
            if i % 3 == 0:
                levels.append(UPSIDE_DOWN)
            for level in levels:
                page = make_page(sources[split], level, seed=hash_seed(split, i))
                h, w = page.image.shape[:2]
                started = time.monotonic()
                image = Image.fromarray(np.ascontiguousarray(page.image[:, :, ::-1]))
                reading = engine.read_page(PageImage(page=1, image=image, dpi=level.dpi))
                seconds = time.monotonic() - started
                ocr = [(x.text, x.raw_score, x.aspect, x.missed_ink, x.box) for x in reading.lines]
                pairs, errors, chars = match_lines(page, ocr, reading.rotation, (w, h))
                page_id = f"{split}-{i}-{level.name}"
                for text, truth, raw, aspect, missed in pairs:
                    lines.append(
                        ScoredLine(
                            split,
                            level.name,
                            text,
                            truth,
                            raw,
                            aspect,
                            cer(text, truth),
                            page_id,
                            missed,
                        )
                    )
                chars_read = sum(len(x.text) for x in reading.lines)
                page_rows.append(
                    {
                        "page_id": page_id,
                        "unread": chars_read < MIN_PAGE_CHARS and ink_share(image) >= MIN_INK,
                        "split": split,
                        "level": level.name,
                        "errors": errors,
                        "chars": chars,
                        "seconds": seconds,
                        "rotation": reading.rotation,
                        "font": page.font,
                    }
                )
                print(
                    f"  {split:6} page {i + 1:2} {level.name:11} {page.font:4} "
                    f"CER {errors / max(chars, 1):7.2%}  {seconds:5.1f} s  rot {reading.rotation}",
                    file=sys.stderr,
                )
    return lines, page_rows


def hash_seed(split: str, index: int) -> int:
    return (1 if split == "tune" else 2) * 100_003 + index * 7919


def report(lines: list[ScoredLine], page_rows: list[dict[str, object]], bad_cer: float) -> None:
    print_cer_table(page_rows, lines, bad_cer)
    by_split = {s: [x for x in lines if x.split == s] for s in ("tune", "report")}
    conf = {
        s: np.array(
            [line_confidence(x.text, x.raw, box_aspect=x.aspect, missed_ink=x.missed) for x in v]
        )
        for s, v in by_split.items()
    }
    raw = {s: np.array([x.raw for x in v]) for s, v in by_split.items()}
    bad = {s: np.array([x.cer > bad_cer for x in v]) for s, v in by_split.items()}
    print(f"\nSeparating good lines (CER <= {bad_cer:.0%}) from bad ones — AUROC")
    print(f"{'split':8} {'level':11} {'lines':>6} {'bad':>5} {'raw score':>10} {'calibrated':>11}")
    for split in ("tune", "report"):
        levels = ["all"] + [d.name for d in (*LEVELS, UPSIDE_DOWN)]
        for level in levels:
            mask = np.array([level in ("all", x.level) for x in by_split[split]], dtype=bool)
            if not mask.any():
                continue
            good = ~bad[split][mask]
            print(
                f"{split:8} {level:11} {mask.sum():6d} {int((~good).sum()):5d} "
                f"{auroc(raw[split][mask], good):10.3f} {auroc(conf[split][mask], good):11.3f}"
            )
    chosen = best_threshold(conf["tune"], bad["tune"])
    print("\nReview threshold (a line is flagged when confidence < threshold), held-out split:")
    print(f"{'threshold':>10} {'precision':>10} {'recall':>7} {'flagged':>8}")
    for label, threshold in (("best-F1", chosen), ("default", DEFAULT_REVIEW_THRESHOLD)):
        p, r, f = flag_stats(conf["report"], bad["report"], threshold)
        print(f"{threshold:10.2f} {p:10.1%} {r:7.1%} {f:8.1%}   ({label}; tuned on tune split)")
    p, r, f = flag_stats(raw["report"], bad["report"], 0.9)
    print(f"{'raw<0.90':>10} {p:10.1%} {r:7.1%} {f:8.1%}   (the engine's own score, for reference)")
    print_page_review(lines, page_rows, bad_cer, chosen)


def print_page_review(
    lines: list[ScoredLine], page_rows: list[dict[str, object]], bad_cer: float, chosen: float
) -> None:
    """Page level, as the runner decides: review when any line (or the page) is untrusted."""
    worst: dict[str, float] = {}
    for x in lines:
        c = line_confidence(x.text, x.raw, box_aspect=x.aspect, missed_ink=x.missed)
        worst[x.page_id] = min(worst.get(x.page_id, 1.0), c)
    rows = [r for r in page_rows if r["split"] == "report" and "page_id" in r]
    if not rows:
        return
    conf = np.array([0.0 if r["unread"] else worst.get(str(r["page_id"]), 0.0) for r in rows])
    errors = np.array([float(r["errors"]) / max(float(r["chars"]), 1.0) for r in rows])  # type: ignore[arg-type]
    bad = errors > bad_cer
    print("\nPages (held out): review when the worst line < threshold or the page is unread")
    print(f"bad pages (CER > {bad_cer:.0%}): {int(bad.sum())} of {len(rows)}")
    print(f"{'threshold':>10} {'precision':>10} {'recall':>7} {'flagged':>8}")
    for threshold in (chosen, DEFAULT_REVIEW_THRESHOLD):
        p, r, f = flag_stats(conf, bad, threshold)
        print(f"{threshold:10.2f} {p:10.1%} {r:7.1%} {f:8.1%}")
    print(f"pages sent to review at {chosen:.2f}, per level:", end="")
    for level in dict.fromkeys(str(r["level"]) for r in rows):
        mask = np.array([r["level"] == level for r in rows])
        print(f"  {level} {int((conf[mask] < chosen).sum())}/{int(mask.sum())}", end="")
    print()


def print_cer_table(
    page_rows: list[dict[str, object]], lines: list[ScoredLine], bad_cer: float
) -> None:
    print("\nCER per degradation level (engine rapidocr-ppocr, PP-OCRv6 small, cls off)")
    print(
        f"{'split':8} {'level':11} {'pages':>5} {'CER':>8} {'lines':>6} {'bad lines':>9} "
        f"{'s/page':>7} {'rotated':>7}"
    )
    totals: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0, 0.0, 0])
    for row in page_rows:
        t = totals[(str(row["split"]), str(row["level"]))]
        t[0] += 1
        t[1] += int(row["errors"])  # type: ignore[call-overload]
        t[2] += int(row["chars"])  # type: ignore[call-overload]
        t[3] += float(row["seconds"])  # type: ignore[arg-type]
        t[4] += int(row["rotation"] == 180)
    for (split, level), (n, errors, chars, seconds, rotated) in totals.items():
        subset = [x for x in lines if x.split == split and x.level == level]
        n_bad = sum(x.cer > bad_cer for x in subset)
        print(
            f"{split:8} {level:11} {n:5d} {errors / max(chars, 1):8.2%} {len(subset):6d} "
            f"{n_bad / max(len(subset), 1):9.1%} {seconds / n:7.2f} {rotated:4d}/{n}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=6, help="pages per split per level")
    parser.add_argument("--bad-cer", type=float, default=0.05)
    parser.add_argument("--dump", type=Path, help="write the scored lines as JSON lines")
    parser.add_argument("--from-dump", type=Path, help="re-score a dump without running OCR")
    parser.add_argument("--no-peers", action="store_true", help="skip the Tesseract table")
    parser.add_argument("--peers-only", action="store_true", help="only the Tesseract table")
    parser.add_argument("--peer-pages", type=int, default=2, help="synthetic pages per level")
    parser.add_argument("--peer-levels", type=int, default=3, help="degradation levels, mildest")
    parser.add_argument("--corpus-pages", type=int, default=6, help="real scan pages timed")
    parser.add_argument("--threads", type=int, help="threads per page (default: the shipped 2)")
    parser.add_argument(
        "--intra-op", action="store_true", help="threads as intra-op threads, not line workers"
    )
    parser.add_argument("--rec-min-width", type=int, help="narrowest recogniser input, px")
    parser.add_argument("--spinning", action="store_true", help="let idle ORT threads spin")
    parser.add_argument("--no-arena", action="store_true", help="no ORT CPU memory arena")
    parser.add_argument("--max-side", type=int, help="long side of the detector's input, px")
    parser.add_argument("--rec-batch", type=int, help="text lines per recogniser run")
    parser.add_argument("--det-model", type=Path, help="another detector model file (int8, say)")
    parser.add_argument("--rec-model", type=Path, help="another recogniser model file")
    parser.add_argument(
        "--no-fast-rec", action="store_true", help="the small recogniser reads every line"
    )
    parser.add_argument("--exact-below", type=float, help="tiny's score that sends a line to small")
    parser.add_argument("--sure-above", type=float, help="tiny's score that keeps an unknown word")
    args = parser.parse_args()
    started = time.monotonic()
    print(cpu_line(engine_choice(args)))
    if args.peers_only:
        peers(args)
        return
    if args.from_dump:
        lines, page_rows = load_dump(args.from_dump)
    else:
        lines, page_rows = run_ocr(args.pages, engine_choice(args), model_files(args))
        if args.dump:
            save_dump(args.dump, lines, page_rows)
    report(lines, page_rows, args.bad_cer)
    print(
        f"\n{len(lines)} lines, {len(page_rows)} page readings, {time.monotonic() - started:.0f} s"
    )
    print(cpu_line(engine_choice(args)))
    if not args.no_peers:
        peers(args)


def peers(args: argparse.Namespace) -> None:
    from ocr_peers import Variant, compare, print_table, tesseract_available

    if not tesseract_available():
        print("\n(tesseract with the 'ind' language is not installed: make system-deps)")
        return
    choice = engine_choice(args)
    models = model_files(args)
    # Always rows, read off the same pages: the same engine on one thread (its CPU per page
    # is a worker's throughput), the engine as it was before lines were read one by one on
    # two threads and sure_above fell to 0.97, and the small recogniser alone (the engine
    # before the cascade; its quality is the bound).
    one = replace(choice, threads=1)
    variants: list[Variant] = [
        ("1 thread", one, (None, None)),
        (
            "before: batch 6 w320 sure .99, 1 thr",
            replace(one, rec_batch=6, rec_min_width=320, sure_above=0.99),
            (None, None),
        ),
        ("small rec only, 1 thr", replace(one, fast_rec=False), (None, None)),
    ]
    if any(models):
        variants.append((model_label(models), None, models))
    print_table(compare(args.peer_pages, args.corpus_pages, args.peer_levels, choice, variants))
    print(cpu_line(choice))


def save_dump(path: Path, lines: list[ScoredLine], page_rows: list[dict[str, object]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for row in page_rows:
            out.write(json.dumps({"page": row}) + "\n")
        for line in lines:
            out.write(json.dumps({"line": asdict(line)}) + "\n")


def load_dump(path: Path) -> tuple[list[ScoredLine], list[dict[str, object]]]:
    lines, page_rows = [], []
    for raw in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(raw)
        if "page" in record:
            page_rows.append(record["page"])
        else:
            lines.append(ScoredLine(**record["line"]))
    return lines, page_rows


if __name__ == "__main__":
    main()
