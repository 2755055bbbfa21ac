"""The chaos soak at scale (issue 11 §2): the scenario of tests/kafka_worker/test_chaos_soak.py
(shared code: tests/kafka_worker/soak_scenario.py) at N records, default 5000.

Two ``kafka_worker`` processes in one group, a broker of their own on free ports (stopped
and started by the scenario), a seeded mix of records and faults (kill -9 + restart,
broker stop/start, SIGTERM + restart). Prints records/s, the records per class, lost /
wrong terminal / duplicates / stuck (each must be 0), the workers' RSS at the start and
the end (goal: growth ≤ 10 %) and the seed; ``--seed`` replays a run. With
``--baseline N`` it first runs N records of the same mix without faults, for comparison.

Run from the repository root: ``.venv/bin/python bench/soak.py [--records 5000] [--seed S]``.
Uses ``DATABASE_URL`` when set (else a throwaway Postgres); documents live in a file://
store in a temporary directory. Exit status 1 when the accounting is not exact.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def setup() -> Any:
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
    return postgres


def worker_env(bootstrap: str, topics: Any, store: Path) -> dict[str, str]:
    import json

    drop = {"MODEL_GATEWAY_URL", "MANAGER_URL", "AUDIT_REDIS_URL"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        OBJECT_STORAGE_URL=store.as_uri(),
        KAFKA_ENABLED="true",
        KAFKA_BOOTSTRAP_SERVERS=bootstrap,
        KAFKA_STAGE_TOPICS=json.dumps(topics.stage_topics),
        KAFKA_DOC_UPLOADED_TOPIC=topics.input_topic,
        KAFKA_CONSUMER_GROUP=topics.group_id,
        KAFKA_MAX_RETRIES="1",
        KAFKA_RETRY_BACKOFF_SECONDS="0.1",
        KAFKA_METRICS_PORT="0",
        KAFKA_DRAIN_SECONDS="60",
        OCR_REVIEW_THRESHOLD="0.0",
        LOG_LEVEL=os.environ.get("BENCH_WORKER_LOG_LEVEL", "INFO"),
        PYTHONUNBUFFERED="1",
    )
    return env


def soak(broker: Any, store: Path, logs: Path, seed: int, records: int, faults: bool) -> Any:
    from scripts.kafka import start_broker, stop_broker
    from tests.harness.fixtures import make_topics
    from tests.kafka_worker.soak_scenario import PARTITIONS, Services, make_plan, run

    tag = uuid.uuid4().hex[:8]
    topics = make_topics(broker.bootstrap, f"soak-{tag}", PARTITIONS)

    def put(key: str, data: bytes) -> None:
        path = store / key
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    services = Services(
        bootstrap=broker.bootstrap,
        input_topic=topics.input_topic,
        stage_topics=sorted(set(topics.stage_topics.values())),
        group_id=topics.group_id,
        worker_env=worker_env(broker.bootstrap, topics, store),
        put_object=put,
        stop_broker=lambda: stop_broker(broker),
        start_broker=lambda: start_broker(broker),
        log_dir=logs,
        say=lambda text: print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True),
    )
    plan, injections = make_plan(seed, records, tag)
    # Generous: about 1 s per record on a loaded 2-core machine, plus the outages.
    return run(plan, injections if faults else [], services, timeout=600 + 1.5 * records)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--baseline", type=int, default=0, help="records without faults first")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    print(f"seed {seed} (replay: bench/soak.py --records {args.records} --seed {seed})")
    postgres = setup()
    from scripts.kafka import private_config, start_broker, stop_broker

    with tempfile.TemporaryDirectory(prefix="bench-soak-") as tmp:
        root = Path(tmp)
        (root / "store").mkdir()
        broker = private_config(root / "kafka")
        start_broker(broker)
        try:
            baseline = None
            if args.baseline:
                baseline = soak(broker, root / "store", root, seed, args.baseline, False)
            report = soak(broker, root / "store", root, seed, args.records, True)
        finally:
            stop_broker(broker)
            if postgres is not None:
                from django.db import connections

                connections.close_all()
                postgres.stop()
    print()
    print(f"conditions: 2 workers, 4 partitions, small txt documents, seed {seed}")
    if baseline is not None:
        rate = baseline.records / max(baseline.elapsed_s, 1e-9)
        print(f"baseline without faults: {baseline.records} records, {rate:.2f} records/s")
    print(report.summary())
    growth = [
        100.0 * (end - start) / start
        for name, (start, end) in report.rss_kb.items()
        if start and "restarted" not in name
    ]
    if growth:
        verdict = "ok" if max(growth) <= 10.0 else "ABOVE the 10 % goal"
        print(f"RSS growth of the worker that ran throughout: {max(growth):+.1f}% ({verdict})")
    print("accounting:", "exact" if report.ok else "NOT exact")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
