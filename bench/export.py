"""Export and import of the knowledge base: times, size, and what a round trip loses.

Run from the repository root: ``.venv/bin/python bench/export.py [--limit N]``.

Ingests the dev corpus (``/work/shared/corpus/docs``, the galqa documents) and the
amendment chains (``/work/shared/corpus/amendments``) through the pipeline — the
``--limit`` smallest of them (the machine is shared; the default takes them all) — then
prints the export time (with and without derived data), the export size per document,
the import time into a
fresh database and store (with derived data, and re-running the pipeline from the
originals), import-with-derived ÷ re-ingest (goal ≤ 0.2) and the number of differences of
each round trip (counts per table, /api/search of 20 queries, review states, in-force
status, originals' sha256; goal 0). Uses ``DATABASE_URL`` when set, else a throwaway
embedded Postgres; fresh instances are databases created on the same server.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = Path("/work/shared/corpus")


def corpus_files(limit: int) -> list[Path]:
    from ingestion.jobs import UploadRejected, upload_format

    found = []
    for folder in (CORPUS / "docs", CORPUS / "galqa" / "docs", CORPUS / "amendments"):
        for path in sorted(folder.glob("*")):
            if path.name == "README.md" or not path.is_file():
                continue
            try:
                upload_format(path.name)
            except UploadRejected:
                continue
            found.append(path)
    # Smallest first: a --limit subset stays cheap on a shared machine.
    return sorted(found, key=lambda p: p.stat().st_size)[:limit]


def ingest_all(store: Path, files: list[Path]) -> float:
    from ingestion.jobs import upload_format
    from ingestion.pipeline.embed import get_embedder
    from ingestion.pipeline.request import IngestRequest
    from ingestion.pipeline.runner import ingest

    get_embedder().embed_passages(["pemanasan"])  # the model loads outside the timing
    started = time.perf_counter()
    for path in files:
        key = f"bench/{path.parent.name}/{path.name}"
        (store / key).parent.mkdir(parents=True, exist_ok=True)
        (store / key).write_bytes(path.read_bytes())
        result = ingest(
            IngestRequest(
                job=None,
                storage_key=key,
                format=upload_format(path.name),
                parser_file_name=path.name,
                mime_type="",
                title=path.stem.replace("_", " "),
                source_type="JDIH",
                source_key=f"bench:{path.name}",
                source_version="1",
            )
        )
        print(f"  {path.name:<52} {result.outcome:<13} {result.chunk_count:>4} potongan")
    return time.perf_counter() - started


def export(target: Path, *args: str) -> float:
    from io import StringIO

    from django.core.management import call_command

    started = time.perf_counter()
    call_command("export_corpus", str(target), "--no-progress", *args, stdout=StringIO())
    return time.perf_counter() - started


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def fresh_instance(tmp: Path) -> dict[str, str]:
    from django.db import connection
    from psycopg.conninfo import make_conninfo

    name = f"bench_export_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}"')
    store = tmp / name
    store.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "MODEL_GATEWAY_URL"}
    env.update(DATABASE_URL=make_conninfo(os.environ["DATABASE_URL"], dbname=name))
    env.update(OBJECT_STORAGE_URL=store.as_uri(), LOG_LEVEL="WARNING")
    manage(env, "migrate", "--no-input")
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(done.stdout + done.stderr)
    return done.stdout


def import_seconds(env: dict[str, str], export_dir: Path) -> float:
    """The import's own time (the command reports it), without the process start-up."""
    output = manage(env, "import_corpus_export", str(export_dir), "--no-progress")
    found = re.search(r"dalam ([\d.]+) dtk", output)
    return float(found.group(1)) if found else float("nan")


def remote_snapshot(env: dict[str, str], token: str) -> dict[str, object]:
    import json

    done = subprocess.run(
        [sys.executable, "-m", "tests.export.snapshot", token],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def run(tmp: Path, limit: int) -> None:
    from io import StringIO

    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    from tests.export.snapshot import differences, snapshot

    setup_test_environment()
    store = tmp / "objects"
    store.mkdir()
    files = corpus_files(limit)
    print(f"{len(files)} dokumen:")
    reingest = ingest_all(store, files)
    out = StringIO()
    call_command("create_api_token", "bench-ekspor", stdout=out)
    token = out.getvalue().strip().splitlines()[-1]
    before = snapshot(token)
    with_derived, without = tmp / "ekspor-turunan", tmp / "ekspor"
    t_with = export(with_derived, "--with-derived")
    t_without = export(without)
    t_incremental = export(without, "--compare-checksums")
    documents = len(files)
    print(f"re-ingest (pipeline):               {reingest:8.2f} s")
    print(f"export, kept rows only:             {t_without:8.2f} s")
    print(f"export, with derived:               {t_with:8.2f} s")
    print(f"export, incremental (no change):    {t_incremental:8.2f} s")
    print(f"size per document, kept only:       {size(without) / documents / 1024:8.1f} KiB")
    print(f"size per document, with derived:    {size(with_derived) / documents / 1024:8.1f} KiB")
    for label, export_dir in (("with derived", with_derived), ("from originals", without)):
        env = fresh_instance(tmp)
        seconds = import_seconds(env, export_dir)
        diff = differences(before, remote_snapshot(env, token))
        print(f"import, {label + ':':<28}{seconds:8.2f} s, round-trip differences: {len(diff)}")
        for line in diff[:5]:
            print(f"    {line[:160]}")
        if label == "with derived":
            print(f"import with derived ÷ re-ingest:    {seconds / reingest:8.3f} (goal ≤ 0.2)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=1000, help="smallest documents ingested")
    args = parser.parse_args()
    # A timeout's SIGTERM still runs the clean-up below (the throwaway Postgres stops).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))
    with tempfile.TemporaryDirectory(prefix="bench-export-") as tmp:
        os.environ["OBJECT_STORAGE_URL"] = (Path(tmp) / "objects").as_uri()
        os.environ.setdefault("LOG_LEVEL", "WARNING")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
        postgres = None
        if not os.environ.get("DATABASE_URL"):
            from scripts.services import start_postgres

            postgres = start_postgres()
            os.environ["DATABASE_URL"] = postgres.url
        try:
            import django

            django.setup()
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            run(Path(tmp), args.limit)
        finally:
            if postgres is not None:
                from django.db import connections

                connections.close_all()
                postgres.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
