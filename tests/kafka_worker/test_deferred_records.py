"""A record deferred by lock contention holds its partition's commit and is re-run by the
worker from Postgres once the document lock is free — no partner re-publish needed."""

from __future__ import annotations

from collections.abc import Callable

import psycopg
import pytest

from ingestion.models import IngestionJob, JobState
from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import (
    BORN_DIGITAL,
    StageReader,
    WorkerProcess,
    committed_offset,
    database_url_for_workers,
    follows_contract_order,
    has_terminal,
    produce,
    put_object,
    record_bytes,
    wait_committed,
    worker_env,
)
from tests.partner_ingest.helpers import LEGAL_TEXT, doc_uploaded

pytestmark = pytest.mark.kafka


@pytest.mark.parametrize("unique_topics", [1], indirect=True)
def test_a_deferred_record_holds_the_commit_and_runs_once_the_lock_is_free(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    blocked = doc_uploaded(put_object(s3_bucket, "jdih/a.txt", LEGAL_TEXT.encode()))
    later = doc_uploaded(put_object(s3_bucket, "jdih/b.txt", b"Pasal 9\n\nAturan lain.\n"))
    holder = psycopg.connect(database_url_for_workers(), autocommit=True)
    holder.execute(
        "SELECT pg_advisory_lock(hashtextextended(%s, 0))",
        [f"doc-uploaded:{blocked['documentId']}"],
    )
    worker = start_worker(worker_env(unique_topics, s3_bucket), "--deferred-retry-seconds", "0.5")
    reader = StageReader(unique_topics)

    produce(
        unique_topics.bootstrap,
        unique_topics.input_topic,
        [record_bytes(blocked), record_bytes(later)],
        partition=0,
    )
    reader.read(has_terminal(later["jobId"]))
    worker.wait_for(rf"jobId={blocked['jobId']} documentId=- outcome=deferred commit=held")
    held_at = committed_offset(unique_topics)
    job = IngestionJob.objects.get(partner_job_id=blocked["jobId"])
    state_while_locked = job.state
    holder.close()  # the other "worker" finishes: the lock is free
    reader.read(has_terminal(blocked["jobId"]))
    worker.wait_for(r"deferred records resolved")

    assert state_while_locked == JobState.DEFERRED
    assert held_at in (-1001, 0)  # never past the deferred record
    assert follows_contract_order(reader.of(blocked["jobId"]), BORN_DIGITAL)
    assert IngestionJob.objects.get(pk=job.pk).state == JobState.DONE
    assert wait_committed(unique_topics, 2) == 2
    reader.close()
