"""Two workers in one group share four partitions: 40 records, each indexed exactly once."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pytest

from ingestion.models import Document
from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import (
    BORN_DIGITAL,
    StageReader,
    WorkerProcess,
    produce,
    put_object,
    record_bytes,
    terminals,
    worker_env,
)
from tests.partner_ingest.helpers import doc_uploaded

pytestmark = pytest.mark.kafka
RECORDS = 40


@pytest.mark.parametrize("unique_topics", [4], indirect=True)
def test_two_workers_in_one_group_index_every_record_once(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    records = [
        doc_uploaded(
            put_object(
                s3_bucket, f"opendata/{n}.txt", f"Pasal {n}\n\nKetentuan nomor {n}.\n".encode()
            )
        )
        for n in range(RECORDS)
    ]
    env = worker_env(unique_topics, s3_bucket)
    first = start_worker(env)
    first.wait_ready()
    second = start_worker(env)
    second.wait_ready()
    reader = StageReader(unique_topics)

    for partition in range(4):
        batch = [record_bytes(r) for r in records[partition::4]]
        produce(unique_topics.bootstrap, unique_topics.input_topic, batch, partition=partition)
    reader.read(lambda ms: len(ms) >= RECORDS * len(BORN_DIGITAL), timeout=240)
    reader.settle(2.0)

    per_job = Counter(m.key for m in terminals(reader.messages))
    assert sorted(per_job) == sorted(r["jobId"] for r in records)
    assert set(per_job.values()) == {1}
    assert all(
        sorted(m.wire for m in reader.of(r["jobId"])) == sorted(BORN_DIGITAL) for r in records
    )
    assert Document.objects.count() == RECORDS
    handled = [len(re.findall(r"outcome=indexed", w.log)) for w in (first, second)]
    assert sum(handled) == RECORDS and min(handled) > 0, handled
    reader.close()
