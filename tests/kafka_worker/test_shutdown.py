"""SIGTERM finishes the document in flight and exits 0; a second signal exits at once."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable

import pytest

from ingestion.models import IngestionJob, JobState
from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import (
    StageReader,
    WorkerProcess,
    committed_offset,
    produce,
    put_object,
    record_bytes,
    scanned_pages,
    started_ocr,
    terminals,
    worker_env,
)
from tests.partner_ingest.helpers import doc_uploaded

pytestmark = pytest.mark.kafka
ONE_PARTITION = pytest.mark.parametrize("unique_topics", [1], indirect=True)


def _worker_in_ocr(
    start_worker: Callable[..., WorkerProcess],
    topics: KafkaTopics,
    bucket: S3Bucket,
    pages: int,
) -> tuple[WorkerProcess, StageReader, dict[str, str]]:
    record = doc_uploaded(
        put_object(bucket, "jdih/scan.pdf", scanned_pages(pages)), "application/pdf"
    )
    worker = start_worker(worker_env(topics, bucket))
    reader = StageReader(topics)
    produce(topics.bootstrap, topics.input_topic, [record_bytes(record)], partition=0)
    reader.read(started_ocr(record["jobId"]))
    return worker, reader, record


@ONE_PARTITION
def test_sigterm_during_a_document_finishes_it_commits_and_exits_0(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    worker, reader, record = _worker_in_ocr(start_worker, unique_topics, s3_bucket, 2)

    worker.signal(signal.SIGTERM)
    code = worker.wait(120)
    reader.read(lambda ms: bool(terminals(ms)), timeout=10)

    assert code == 0, worker.log[-3000:]
    assert [m.wire for m in terminals(reader.of(record["jobId"]))] == [("indexed", "done", 100)]
    assert IngestionJob.objects.get(partner_job_id=record["jobId"]).state == JobState.DONE
    assert committed_offset(unique_topics) == 1
    assert "stopped cleanly after 1 records" in worker.log
    reader.close()


@ONE_PARTITION
def test_a_second_signal_exits_at_once_without_committing_the_record_in_flight(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    worker, reader, record = _worker_in_ocr(start_worker, unique_topics, s3_bucket, 4)

    worker.signal(signal.SIGTERM)
    time.sleep(0.3)
    started = time.monotonic()
    worker.signal(signal.SIGINT)
    code = worker.wait(30)
    took = time.monotonic() - started

    assert code == 130
    assert took < 6.0
    assert committed_offset(unique_topics) in (-1001, 0)
    assert IngestionJob.objects.get(partner_job_id=record["jobId"]).state == JobState.PROCESSING
    assert terminals(reader.settle(0.5)) == []
    reader.close()
