"""The chaos soak in the suite (issue 11 §2): two workers, 150 mixed records, a kill -9,
a broker outage and a SIGTERM at seeded points, then the exact accounting.

The seed is printed (and in the failure message); replay a run with
``make test ARGS="tests/kafka_worker/test_chaos_soak.py"`` and ``TEST_SOAK_SEED=SEED`` set,
or outside the suite with ``.venv/bin/python bench/soak.py --records 150 --seed SEED``.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.harness.fixtures import KafkaBroker, KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import put_object, worker_env
from tests.kafka_worker.soak_scenario import PARTITIONS, Services, make_plan, run

pytestmark = pytest.mark.kafka
RECORDS = 150
TIMEOUT_S = 480.0


def test_two_workers_under_kill_outage_and_sigterm_account_for_every_record(
    kafka_broker: KafkaBroker,
    make_unique_topics: Callable[..., KafkaTopics],
    s3_bucket: S3Bucket,
    tmp_path: Path,
    transactional_db: None,
) -> None:
    seed = int(os.environ.get("TEST_SOAK_SEED") or random.SystemRandom().randrange(2**31))
    print(f"soak seed: {seed}")
    topics = make_unique_topics(partitions=PARTITIONS, bootstrap=kafka_broker.bootstrap)
    services = Services(
        bootstrap=topics.bootstrap,
        input_topic=topics.input_topic,
        stage_topics=sorted(set(topics.stage_topics.values())),
        group_id=topics.group_id,
        worker_env=worker_env(topics, s3_bucket),
        put_object=lambda key, data: put_object(s3_bucket, key, data),
        stop_broker=kafka_broker.stop,
        start_broker=kafka_broker.start,
        log_dir=tmp_path,
    )
    plan, injections = make_plan(seed, RECORDS, uuid.uuid4().hex[:8])

    report = run(plan, injections, services, TIMEOUT_S)

    print(report.summary())
    if not report.ok:
        for log in sorted(tmp_path.glob("soak-worker*.log")):
            print(f"--- {log.name} ---\n{log.read_text(errors='replace')[-5000:]}")
    assert report.ok, report.summary()
