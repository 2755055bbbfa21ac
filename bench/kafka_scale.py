"""Scale-out on real regulations (issue #35): ``import_corpus --via-kafka`` into a consumer
group of one ``kafka_worker``, then of two, on the real broker; documents per hour of each.

Run from the repository root::

    LOCAL_EMBED_ENGINE=int8 .venv/bin/python bench/kafka_scale.py \\
        --corpus /tmp/data-peraturan --only uu --sample 40 [--seed 35] [--partitions 4]

The corpus is ``mblonyox/data-peraturan`` extracted outside the repository (see
``bench/corpus_scale.py``). Two rounds on two disjoint seeded samples of ``--sample`` files
each (a document already imported would be skipped): round 1 with one worker, round 2 with
two in one group; each round has fresh topics (``--partitions`` each) and a fresh group,
both rounds the same Postgres (a throwaway one unless ``DATABASE_URL`` is set; a reused
database that already holds the sample makes ``import_corpus`` skip it, and this says so)
and a file:// object store. The workers get this process's environment (so
``LOCAL_EMBED_ENGINE``), the same ``DATABASE_URL``, ``OBJECT_STORAGE_URL`` and topics, and
``LOG_LEVEL=WARNING``. They are started, seen in the group with partitions assigned, and
warmed up (one small document per partition, so every worker has loaded its model) before
the clock starts; the clock runs from ``import_corpus`` (object storage + doc.uploaded) until
every document sent is indexed / needs_review / skipped / failed in the database.

Prints per round: documents, MB, seconds, documents/hour, failed, the load average before
and after; then two ÷ one, and the workers needed for 100,000 regulations in 6 hours at the
measured per-worker rate (a topic of P partitions feeds at most P workers of a group, so
partitions must be >= workers). The two samples are matched in size (the files picked are
paired by bytes, one of each pair per round), yet still differ: a small ``--sample`` is
noisy, hence MB/hour beside documents/hour.

This machine has 2 cores: two workers on it share them, so the two-worker figure shows
contention on one machine, not scale-out; scale-out across machines is the arithmetic
line (one worker per machine at the one-worker rate).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import kafka_worker as worker_bench  # noqa: E402  (bench/kafka_worker.py, beside this file)

COLLECTION = "kafka-scale"
TERMINAL = ("indexed", "needs_review", "skipped", "failed")
TARGET_DOCUMENTS = 100_000
WINDOW_HOURS = 6
JENIS_OF_FOLDER = {"uu": "Undang-Undang", "pp": "Peraturan Pemerintah", "permenkeu": "PMK"}
_LAYOUT = re.compile(r"(?P<folder>[a-z]+)/(?P<tahun>\d{4})/(?P<nomor>\d+)\.md$")


@dataclass
class Worker:
    proc: subprocess.Popen[bytes]
    log_path: Path
    log: IO[bytes]

    def tail(self, lines: int = 20) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


@dataclass(frozen=True)
class Bench:
    bootstrap: str
    tmp: Path
    partitions: int
    timeout: float

    @property
    def store(self) -> Path:
        return self.tmp / "store"

    @property
    def corpus(self) -> Path:
        return self.tmp / "corpus"


@dataclass
class Round:
    workers: int
    documents: int
    megabytes: float
    seconds: float
    statuses: Counter[str]
    not_sent: list[str]
    load_before: str
    load_after: str

    @property
    def per_hour(self) -> float:
        return self.documents / self.seconds * 3600 if self.seconds > 0 else 0.0


# --- the sample --------------------------------------------------------------------------------


def corpus_files(root: Path, only: str | None) -> list[str]:
    folders = [root / only] if only else sorted(p for p in root.iterdir() if p.is_dir())
    return sorted(p.relative_to(root).as_posix() for f in folders for p in f.rglob("*.md"))


def disjoint_samples(
    root: Path, files: list[str], size: int, seed: int
) -> tuple[list[str], list[str]]:
    """Two disjoint seeded samples of ``size`` files, matched in bytes: the ``2 * size``
    files picked are paired by size and each pair split between the samples at random."""
    if 2 * size > len(files):
        raise SystemExit(
            f"--sample {size} twice needs {2 * size} files; the corpus has {len(files)}"
        )
    rng = random.Random(seed)
    picked = sorted(rng.sample(files, 2 * size), key=lambda f: (root / f).stat().st_size)
    first, second = [], []
    for pair in zip(picked[::2], picked[1::2], strict=True):
        a, b = rng.sample(pair, 2)
        first.append(a)
        second.append(b)
    return sorted(first), sorted(second)


def manifest_row(relpath: str) -> dict[str, str]:
    """jenis, nomor, tahun and a title from the layout (``uu/2003/13.md``), as
    ``bench/corpus_scale.py`` gives them: some files open with OCR noise, not a title."""
    match = _LAYOUT.match(relpath)
    if match is None or match["folder"] not in JENIS_OF_FOLDER:
        return {"file": relpath}
    jenis, nomor, tahun = JENIS_OF_FOLDER[match["folder"]], match["nomor"], match["tahun"]
    judul = f"{jenis} Nomor {nomor} Tahun {tahun}"
    return {"file": relpath, "jenis": jenis, "nomor": nomor, "tahun": tahun, "judul": judul}


def write_manifest(bench: Bench, root: Path, files: list[str], name: str) -> Path:
    """A manifest beside links to the corpus folders: relpaths stay ``uu/2003/13.md``."""
    bench.corpus.mkdir(exist_ok=True)
    for folder in {f.split("/")[0] for f in files}:
        link = bench.corpus / folder
        if not link.exists():
            link.symlink_to(root / folder, target_is_directory=True)
    path = bench.corpus / name
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["file", "jenis", "nomor", "tahun", "judul"])
        writer.writeheader()
        writer.writerows(manifest_row(f) for f in files)
    return path


# --- workers ----------------------------------------------------------------------------------


def make_topics(bootstrap: str, partitions: int) -> tuple[str, dict[str, str], str]:
    from django.conf import settings

    from scripts.services import create_topics

    suffix = uuid.uuid4().hex[:8]
    stage = {k: f"{v}.scale-{suffix}" for k, v in settings.DEFAULT_STAGE_TOPICS.items()}
    uploaded = f"doc.uploaded.scale-{suffix}"
    create_topics(bootstrap, [uploaded, *set(stage.values())], partitions=partitions)
    return uploaded, stage, f"scale-{suffix}"


def start_workers(env: dict[str, str], count: int, logs: Path) -> list[Worker]:
    workers = []
    for n in range(count):
        log_path = logs / f"worker-{uuid.uuid4().hex[:6]}-{n}.log"
        log = log_path.open("wb")
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "kafka_worker"],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        workers.append(Worker(proc, log_path, log))
    return workers


def check_alive(workers: list[Worker]) -> None:
    for worker in workers:
        code = worker.proc.poll()
        if code is not None:
            raise SystemExit(f"a kafka_worker exited with {code}:\n{worker.tail()}")


def stop_workers(workers: list[Worker]) -> None:
    for worker in workers:
        if worker.proc.poll() is None:
            worker.proc.terminate()
    for worker in workers:
        try:
            worker.proc.wait(60)
        except subprocess.TimeoutExpired:
            worker.proc.kill()
            worker.proc.wait()
        worker.log.close()


def assignments(admin: Any, group: str) -> list[int]:
    """Partitions assigned to each member of ``group`` (empty while nobody has joined)."""
    from confluent_kafka import KafkaException

    try:
        description = admin.describe_consumer_groups([group])[group].result(timeout=10)
    except KafkaException:
        return []
    return [len(m.assignment.topic_partitions) for m in description.members]


def wait_members(bench: Bench, group: str, workers: list[Worker], timeout: float = 300.0) -> None:
    """Until every worker is in the group with at least one partition."""
    from scripts.services import admin_client

    admin = admin_client(bench.bootstrap)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        check_alive(workers)
        counts = assignments(admin, group)
        if len(counts) == len(workers) and all(counts):
            return
        time.sleep(1.0)
    raise SystemExit(f"{len(workers)} worker(s) not all assigned in group {group} in {timeout}s")


def terminal_statuses(field: str, values: list[str]) -> dict[str, str]:
    from ingestion.models import Document

    rows = Document.objects.filter(**{f"{field}__in": values, "status__in": TERMINAL})
    return {str(key): str(status) for key, status in rows.values_list(field, "status")}


def warm_up(bench: Bench, topic: str, workers: list[Worker], timeout: float = 900.0) -> None:
    """One small document per partition (each worker owns one at least) until indexed."""
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": bench.bootstrap})
    tag = f"warm-{uuid.uuid4().hex[:8]}"
    ids = []
    for n in range(bench.partitions):
        value = worker_bench.record(bench.store, tag, n)
        ids.append(json.loads(value)["documentId"])
        producer.produce(topic, value=value, partition=n)
    producer.flush(30)
    deadline = time.monotonic() + timeout
    while len(terminal_statuses("registry_id", ids)) < len(ids):
        check_alive(workers)
        if time.monotonic() > deadline:
            raise SystemExit(f"warm-up documents not done in {timeout:.0f}s")
        time.sleep(0.5)


# --- one round --------------------------------------------------------------------------------


def send(manifest: Path, bench: Bench, topic: str) -> list[dict[str, str]]:
    """``import_corpus --manifest … --via-kafka``; its summary rows."""
    from django.conf import settings
    from django.core.management import call_command

    settings.KAFKA_BOOTSTRAP_SERVERS = bench.bootstrap
    settings.KAFKA_DOC_UPLOADED_TOPIC = topic
    summary = manifest.with_suffix(".summary.csv")
    call_command(
        "import_corpus",
        "--manifest",
        str(manifest),
        "--via-kafka",
        "--no-progress",
        "--collection",
        COLLECTION,
        "--summary",
        str(summary),
        stdout=io.StringIO(),
    )
    with summary.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def wait_done(keys: list[str], workers: list[Worker], timeout: float) -> dict[str, str]:
    """Poll the database until every source key is in a terminal state; print progress."""
    started = time.monotonic()
    shown = started
    done = terminal_statuses("metadata__source_key", keys)
    while len(done) < len(keys):
        check_alive(workers)
        now = time.monotonic()
        if now - started > timeout:
            missing = sorted(set(keys) - set(done))
            raise SystemExit(f"not done after {timeout:.0f}s: {missing}")
        if now - shown >= 60:
            print(f"    {now - started:6.0f}s: {len(done)}/{len(keys)} done", flush=True)
            shown = now
        time.sleep(1.0)
        done = terminal_statuses("metadata__source_key", keys)
    return done


def print_failures(keys: list[str]) -> None:
    from ingestion.models import Document

    failed = Document.objects.filter(metadata__source_key__in=keys, status="failed")
    for key, reason in failed.values_list("metadata__source_key", "failure_reason"):
        print(f"    failed {key}: {reason[:300]}")


def timed_import(bench: Bench, manifest: Path, topic: str, workers: list[Worker]) -> Round:
    """From ``import_corpus`` until every sent document is terminal in the database."""
    before = worker_bench.load()
    started = time.monotonic()
    rows = send(manifest, bench, topic)
    sent = [r["file"] for r in rows if r["status"] == "published"]
    keys = [f"import:{COLLECTION}:{f}" for f in sent]
    statuses = wait_done(keys, workers, bench.timeout)
    seconds = time.monotonic() - started
    after = worker_bench.load()
    not_sent = [f"{r['file']}: {r['status']} {r['reason']}" for r in rows if r["file"] not in sent]
    size = sum((bench.corpus / f).stat().st_size for f in sent) / 1e6
    print_failures(keys)
    counts = Counter(statuses.values())
    return Round(len(workers), len(sent), size, seconds, counts, not_sent, before, after)


def run_round(bench: Bench, manifest: Path, count: int) -> Round:
    uploaded, stage, group = make_topics(bench.bootstrap, bench.partitions)
    env = worker_bench.worker_env(bench.bootstrap, uploaded, stage, group)
    env["LOG_LEVEL"] = "WARNING"
    workers = start_workers(env, count, bench.tmp)
    try:
        wait_members(bench, group, workers)
        warm_up(bench, uploaded, workers)
        print(f"  {count} worker(s) in group {group}, warmed up; sending", flush=True)
        return timed_import(bench, manifest, uploaded, workers)
    finally:
        stop_workers(workers)


# --- report -----------------------------------------------------------------------------------


def print_rounds(rounds: list[Round]) -> None:
    print("workers | documents |     MB | seconds | docs/hour | failed | load before -> after")
    for r in rounds:
        print(
            f"{r.workers:7} | {r.documents:9} | {r.megabytes:6.2f} | {r.seconds:7.0f} |"
            f" {r.per_hour:9.0f} | {r.statuses['failed']:6} | {r.load_before} -> {r.load_after}"
        )
        print(f"        statuses: {dict(sorted(r.statuses.items()))}")
        for line in r.not_sent:
            print(f"        not sent: {line}")


def print_arithmetic(one: Round, two: Round) -> None:
    if one.per_hour <= 0 or two.per_hour <= 0:
        print("no rate measured: no arithmetic")
        return
    mb = (two.megabytes / two.seconds) / (one.megabytes / one.seconds) if one.megabytes else 0
    print(f"two ÷ one: x{two.per_hour / one.per_hour:.2f} documents/hour (x{mb:.2f} MB/hour)")
    needed = TARGET_DOCUMENTS / WINDOW_HOURS
    for label, rate in (
        ("one worker alone (one per machine)", one.per_hour),
        ("per worker when two share this machine", two.per_hour / 2),
    ):
        workers = math.ceil(needed / rate)
        print(
            f"{TARGET_DOCUMENTS:,} regulations in {WINDOW_HOURS} h = {needed:,.0f}/hour;"
            f" at {rate:,.0f}/hour ({label}): {workers} workers, so >= {workers} partitions"
        )


# --- main -------------------------------------------------------------------------------------


def teardown(postgres: Any, acquired: bool) -> None:
    if acquired:
        from scripts.services import release_broker

        release_broker()
    if postgres is not None:
        from django.db import connections

        connections.close_all()
        postgres.stop()


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--only", default=None, help="one top folder, e.g. uu")
    parser.add_argument("--sample", type=int, default=40, help="files per round")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=4 * 3600, help="seconds per round")
    args = parser.parse_args()
    if args.partitions < 2 or args.sample < 1:
        parser.error("--partitions must be >= 2 and --sample >= 1")
    return args


def main() -> int:
    args = parse_args()
    root = args.corpus.resolve()
    files = corpus_files(root, args.only)
    first, second = disjoint_samples(root, files, args.sample, args.seed)
    rounds: list[Round] = []
    with tempfile.TemporaryDirectory(prefix="bench-kafka-scale-") as tmp:
        store = Path(tmp) / "store"
        store.mkdir()
        postgres, bootstrap, acquired = worker_bench.setup(store)
        bench = Bench(bootstrap, Path(tmp), args.partitions, args.timeout)
        try:
            from django.conf import settings

            print(
                f"embedder: LOCAL_EMBED_ENGINE={settings.LOCAL_EMBED_ENGINE}; cpus:"
                f" {os.cpu_count()}; corpus {root} ({args.only or 'all'}: {len(files)} files);"
                f" {args.sample} per round, seed {args.seed}; {args.partitions} partitions"
            )
            for count, sample in ((1, first), (2, second)):
                manifest = write_manifest(bench, root, sample, f"round-{count}.csv")
                print(f"round {count}: {count} worker(s), {len(sample)} files", flush=True)
                rounds.append(run_round(bench, manifest, count))
        finally:
            teardown(postgres, acquired)
    print_rounds(rounds)
    print_arithmetic(rounds[0], rounds[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
