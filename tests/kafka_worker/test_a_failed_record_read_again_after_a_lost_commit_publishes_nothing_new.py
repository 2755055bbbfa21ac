"""A failed record read again because its commit was lost publishes nothing new; the
partner re-publishing the jobId (a new record, even with the same bytes) still runs it.

Found by the chaos soak (issue 11 §2): a record failed during a broker outage, its
partition moved before the commit, and the new owner re-ran the failed job as if the
partner had retried it: a second failed/failed for one delivery. Here the lost commit is
played by rewinding the group's offset while no worker runs.
"""

from __future__ import annotations

import signal
from collections.abc import Callable

import pytest
from confluent_kafka import Consumer, TopicPartition

from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import (
    StageReader,
    WorkerProcess,
    has_terminal,
    produce,
    put_object,
    record_bytes,
    terminals,
    wait_committed,
    worker_env,
)
from tests.partner_ingest.helpers import LEGAL_TEXT, doc_uploaded

pytestmark = pytest.mark.kafka


def _rewind(topics: KafkaTopics, offset: int) -> None:
    """Commit ``offset`` for the (empty) group: the earlier commit is as good as lost."""
    consumer = Consumer({"bootstrap.servers": topics.bootstrap, "group.id": topics.group_id})
    try:
        consumer.commit(offsets=[TopicPartition(topics.input_topic, 0, offset)], asynchronous=False)
    finally:
        consumer.close()


@pytest.mark.parametrize("unique_topics", [1], indirect=True)
def test_a_failed_record_read_again_after_a_lost_commit_publishes_nothing_new(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    missing = doc_uploaded("jdih/belum-diunggah.txt")
    job_id = missing["jobId"]
    env = worker_env(unique_topics, s3_bucket)
    reader = StageReader(unique_topics)
    first = start_worker(env)
    produce(unique_topics.bootstrap, unique_topics.input_topic, [record_bytes(missing)])
    reader.read(has_terminal(job_id))
    assert wait_committed(unique_topics, 1) == 1
    first.signal(signal.SIGTERM)
    assert first.wait(60) == 0

    _rewind(unique_topics, 0)
    second = start_worker(env)
    again = second.wait_for(rf"\]@0: jobId={job_id} documentId=\S+ outcome=(\w+)")
    assert again.group(1) == "skipped"
    assert wait_committed(unique_topics, 1) == 1

    put_object(s3_bucket, missing["storageKey"], LEGAL_TEXT.encode())
    produce(unique_topics.bootstrap, unique_topics.input_topic, [record_bytes(missing)])
    reader.read(lambda ms: len(terminals(reader.of(job_id))) >= 2, timeout=90)
    reader.settle(1.0)
    assert [m.wire for m in terminals(reader.of(job_id))] == [
        ("failed", "failed", 100),
        ("indexed", "done", 100),
    ]
    assert wait_committed(unique_topics, 2) == 2
    reader.close()
