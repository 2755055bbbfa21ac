"""kill -9 mid-document: after a restart the document ends indexed exactly once."""

from __future__ import annotations

import signal
from collections.abc import Callable

import pytest

from ingestion.models import Chunk, Document, IngestionJob, JobState
from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import (
    StageReader,
    WorkerProcess,
    has_terminal,
    produce,
    put_object,
    record_bytes,
    scanned_pages,
    started_ocr,
    terminals,
    wait_committed,
    worker_env,
)
from tests.partner_ingest.helpers import doc_uploaded

pytestmark = pytest.mark.kafka


@pytest.mark.parametrize("unique_topics", [1], indirect=True)
def test_a_worker_killed_mid_document_leaves_it_indexed_once_after_a_restart(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    record = doc_uploaded(
        put_object(s3_bucket, "jdih/scan/4.pdf", scanned_pages(4)), "application/pdf"
    )
    env = worker_env(unique_topics, s3_bucket)
    recovery = ("--orphan-grace-seconds", "1", "--deferred-retry-seconds", "0.5")
    first = start_worker(env, *recovery)
    reader = StageReader(unique_topics)

    produce(unique_topics.bootstrap, unique_topics.input_topic, [record_bytes(record)], partition=0)
    reader.read(started_ocr(record["jobId"]))
    first.signal(signal.SIGKILL)
    assert first.wait(30) == -signal.SIGKILL
    assert IngestionJob.objects.get(partner_job_id=record["jobId"]).state == JobState.PROCESSING
    second = start_worker(env, *recovery)
    reader.read(has_terminal(record["jobId"]), timeout=120)
    reader.settle(2.0)

    events = reader.of(record["jobId"])
    assert [m.wire for m in terminals(events)] == [("indexed", "done", 100)]
    document = Document.objects.get()
    chunks = Chunk.objects.filter(document=document)
    # The four pages are alike, so their chunks may share a text; twice indexed, a chunk
    # would also share its pages.
    placed = chunks.values_list("page_from", "page_to", "text")
    assert chunks.count() == len(set(placed)) > 0
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert (job.state, job.document_id) == (JobState.DONE, document.pk)
    assert wait_committed(unique_topics, 1) == 1
    assert "re-run scheduled" in second.log
    reader.close()
