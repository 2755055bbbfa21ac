"""Kafka worker overhead: ms/record end to end for small txt documents through one worker,
against ``handle_record`` called in process on records of the same kind, in the same round
(the ratio is the worker loop's overhead; goal <= 1.10), and against a bare confluent-kafka
consume→produce loop (the floor any worker pays). Rounds repeat (``--repeat``); medians
and the load average are printed, since the machine may be shared. Then 2 workers.

Run from the repository root: ``.venv/bin/python bench/kafka_worker.py [--records 60]``.
Uses ``DATABASE_URL`` when set (else a throwaway Postgres) and ``KAFKA_BOOTSTRAP_SERVERS``
when set (else the shared local broker of ``make kafka``). Documents come from a file://
store; every run uses fresh topics, a fresh group and documents no run saw before.
The clock starts when the records are produced (workers already warmed up) and stops at
the CreateTime of the last terminal stage event on the stage topics.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PARTITIONS = 4
STAGE_EVENTS_PER_RECORD = 5  # born-digital: fetched, parsed, chunked, embedded, indexed


def record(store: Path, tag: str, n: int) -> bytes:
    key = f"bench/{tag}/{n}.txt"
    path = store / key
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"Pasal {n}\n\nKetentuan {tag} nomor {n} tentang pelayanan publik.\n")
    return json.dumps(
        {
            "jobId": str(uuid.uuid4()),
            "documentId": str(uuid.uuid4()),
            "storageKey": key,
            "mimeType": "text/plain",
            "collectionId": str(uuid.uuid4()),
            "collectionName": "OpenData",
            "uploadedBy": str(uuid.uuid4()),
            "uploadedAt": "2026-08-05T09:12:03Z",
        }
    ).encode()


def make_topics(bootstrap: str) -> tuple[str, dict[str, str], str]:
    from django.conf import settings

    from scripts.services import create_topics

    suffix = uuid.uuid4().hex[:8]
    stage = {k: f"{v}.bench-{suffix}" for k, v in settings.DEFAULT_STAGE_TOPICS.items()}
    uploaded = f"doc.uploaded.bench-{suffix}"
    create_topics(bootstrap, [uploaded, *set(stage.values())], partitions=PARTITIONS)
    return uploaded, stage, f"bench-{suffix}"


def produce(bootstrap: str, topic: str, values: list[bytes]) -> None:
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for n, value in enumerate(values):
        producer.produce(topic, value=value, partition=n % PARTITIONS)
    producer.flush(30)


def wait_terminals(bootstrap: str, topic: str, count: int, timeout: float = 600.0) -> float:
    """Wall-clock time (s) at which the last of ``count`` terminal events was produced.

    The events' own CreateTime, not the moment this reader saw them: a reader joining
    its group after the records were produced must not add its join to the worker's time.
    """
    from confluent_kafka import Consumer

    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"bench-reader-{uuid.uuid4().hex[:8]}",
            "auto.offset.reset": "earliest",
        }
    )
    consumer.subscribe([topic])
    seen = 0
    last = 0.0
    deadline = time.monotonic() + timeout
    try:
        while seen < count and time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                value = json.loads(message.value() or b"{}")
                if value.get("stage") in ("indexed", "failed"):
                    seen += 1
                    last = max(last, message.timestamp()[1] / 1000)
    finally:
        consumer.close()
    if seen < count:
        raise SystemExit(f"only {seen}/{count} terminal events within {timeout:.0f}s")
    return last


def worker_env(bootstrap: str, uploaded: str, stage: dict[str, str], group: str) -> dict[str, str]:
    return {
        **os.environ,
        "KAFKA_ENABLED": "true",
        "KAFKA_BOOTSTRAP_SERVERS": bootstrap,
        "KAFKA_DOC_UPLOADED_TOPIC": uploaded,
        "KAFKA_STAGE_TOPICS": json.dumps(stage),
        "KAFKA_CONSUMER_GROUP": group,
        "KAFKA_METRICS_PORT": "0",
        "LOG_LEVEL": os.environ.get("BENCH_WORKER_LOG_LEVEL", "WARNING"),
    }


def run_workers(bootstrap: str, store: Path, workers: int, records: int) -> float:
    """Records/s with ``workers`` processes, after a warm-up record per partition."""
    uploaded, stage, group = make_topics(bootstrap)
    env = worker_env(bootstrap, uploaded, stage, group)
    procs = [
        subprocess.Popen([sys.executable, "manage.py", "kafka_worker"], cwd=REPO, env=env)
        for _ in range(workers)
    ]
    try:
        tag = uuid.uuid4().hex[:8]
        produce(bootstrap, uploaded, [record(store, f"warm-{tag}", n) for n in range(PARTITIONS)])
        wait_terminals(bootstrap, stage["indexed"], PARTITIONS)
        values = [record(store, tag, n) for n in range(records)]
        started = time.time()  # wall clock, as the events' CreateTime
        produce(bootstrap, uploaded, values)
        ended = wait_terminals(bootstrap, stage["indexed"], PARTITIONS + records)
        return records / (ended - started)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(60)


def bare_loop(bootstrap: str, records: int) -> float:
    """Consume each record and produce five small events: the floor any worker pays."""
    from confluent_kafka import Consumer, Producer

    uploaded, stage, group = make_topics(bootstrap)
    produce(bootstrap, uploaded, [b'{"jobId": "x"}'] * records)
    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest"}
    )
    producer = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True})
    consumer.subscribe([uploaded])
    done = 0
    started: float | None = None
    keys = ["fetched", "parsed", "chunked", "embedded", "indexed"]
    while done < records:
        message = consumer.poll(1.0)
        if message is None or message.error() is not None:
            continue
        started = started or time.monotonic()
        for key in keys:
            producer.produce(stage[key], key=b"x", value=message.value())
        producer.flush(10)  # per-record delivery wait, as the worker does
        consumer.commit(message=message, asynchronous=True)
        done += 1
    elapsed = time.monotonic() - (started or time.monotonic())
    consumer.close()
    return records / elapsed if elapsed > 0 else float("inf")


def in_process(bootstrap: str, store: Path, records: int) -> float:
    """handle_record called directly (pipeline + outbox + Kafka publishing), records/s."""
    from django.conf import settings

    from partner_events.handler import handle_record
    from partner_events.publisher import KafkaPublisher

    _uploaded, stage, _group = make_topics(bootstrap)
    settings.KAFKA_BOOTSTRAP_SERVERS = bootstrap
    settings.KAFKA_STAGE_TOPICS = stage
    publisher = KafkaPublisher.from_settings()
    tag = uuid.uuid4().hex[:8]
    handle_record(record(store, f"warm-{tag}", 0), publisher=publisher)
    values = [record(store, tag, n) for n in range(records)]
    started = time.monotonic()
    for value in values:
        handle_record(value, publisher=publisher)
    elapsed = time.monotonic() - started
    publisher.close()
    return records / elapsed


def setup(store: Path) -> tuple[Any, str, bool]:
    os.environ["OBJECT_STORAGE_URL"] = store.as_uri()
    # handle_record in process logs at the workers' level: its log lines are not free.
    os.environ["LOG_LEVEL"] = os.environ.get("BENCH_WORKER_LOG_LEVEL", "WARNING")
    postgres = None
    if not os.environ.get("DATABASE_URL"):
        from scripts.services import start_postgres

        postgres = start_postgres()
        os.environ["DATABASE_URL"] = postgres.url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "")
    acquired = False
    if not bootstrap:
        from scripts.services import acquire_broker

        bootstrap = acquire_broker()
        acquired = True
    return postgres, bootstrap, acquired


def overhead_round(bootstrap: str, store: Path, records: int) -> tuple[float, float, float]:
    """One worker, then ``handle_record`` in process, then the bare loop: ms/record each.

    The same kind and number of records (fresh documents of the same shape: a document
    already seen would be deduplicated), measured back to back so that the load the
    shared machine carries at that moment weighs on both sides of the ratio.
    """
    worker = 1000 / run_workers(bootstrap, store, 1, records)
    direct = 1000 / in_process(bootstrap, store, records)
    bare = 1000 / bare_loop(bootstrap, records)
    return worker, direct, bare


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3, help="overhead rounds; medians shown")
    parser.add_argument("--skip-two", action="store_true", help="skip the 2-worker run")
    args = parser.parse_args()
    rounds: list[tuple[float, float, float]] = []
    two = 0.0
    loads = [load()]
    with tempfile.TemporaryDirectory(prefix="bench-kafka-worker-") as tmp:
        store = Path(tmp)
        postgres, bootstrap, acquired = setup(store)
        try:
            for _ in range(args.repeat):
                rounds.append(overhead_round(bootstrap, store, args.records))
                loads.append(load())
            if not args.skip_two:
                two = run_workers(bootstrap, store, 2, args.records)
        finally:
            if acquired:
                from scripts.services import release_broker

                release_broker()
            if postgres is not None:
                from django.db import connections

                connections.close_all()
                postgres.stop()
    print(f"records: {args.records} small txt documents, {PARTITIONS} partitions")
    print(f"load average (1/5/15 min) before and after each round: {' | '.join(loads)}")
    print("round | worker ms/record | handle_record in process | ratio | bare loop ms/record")
    for n, (worker, direct, bare) in enumerate(rounds, 1):
        print(f"{n:5} | {worker:16.1f} | {direct:24.1f} | {worker / direct:5.2f} | {bare:19.1f}")
    worker = statistics.median(r[0] for r in rounds)
    direct = statistics.median(r[1] for r in rounds)
    ratio = statistics.median(r[0] / r[1] for r in rounds)
    bare = statistics.median(r[2] for r in rounds)
    print(
        f"median | {worker:15.1f} | {direct:24.1f} | {ratio:5.2f} | {bare:19.1f}"
        "  (ratio: median of the rounds' ratios; goal <= 1.10)"
    )
    print(f"worker loop overhead (minus in-process): {worker - direct:6.1f} ms/record")
    if two:
        one = 1000 / worker
        print(f"2 workers: {two:7.2f} records/s ({1000 / two:6.1f} ms/record), x{two / one:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
