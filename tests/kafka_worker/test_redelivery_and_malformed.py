"""Redeliveries are no-ops, a failed jobId is the partner's retry path, malformed records
end failed/failed (or silently, without a jobId), and every outcome is committed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ingestion.models import Document, IngestionJob, JobState
from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import (
    BORN_DIGITAL,
    StageReader,
    WorkerProcess,
    committed_offset,
    follows_contract_order,
    has_terminal,
    produce,
    put_object,
    record_bytes,
    worker_env,
)
from tests.partner_ingest.helpers import LEGAL_TEXT, doc_uploaded, schema_errors

pytestmark = pytest.mark.kafka
ONE_PARTITION = pytest.mark.parametrize("unique_topics", [1], indirect=True)


def _send(topics: KafkaTopics, *values: bytes) -> None:
    produce(topics.bootstrap, topics.input_topic, list(values), partition=0)


@ONE_PARTITION
def test_redelivery_retry_and_malformed_records_follow_the_contract(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    done = doc_uploaded(put_object(s3_bucket, "jdih/qanun-1.txt", LEGAL_TEXT.encode()))
    missing = doc_uploaded("jdih/belum-diunggah.txt")
    no_key = doc_uploaded("jdih/x.txt")
    del no_key["storageKey"]
    worker = start_worker(worker_env(unique_topics, s3_bucket))
    reader = StageReader(unique_topics)

    _send(
        unique_topics, record_bytes(done), record_bytes(missing), b"{not json", record_bytes(no_key)
    )
    reader.read(lambda ms: has_terminal(done["jobId"])(ms) and has_terminal(no_key["jobId"])(ms))
    _send(unique_topics, record_bytes(done))  # a redelivery of a finished jobId
    worker.wait_for(rf"jobId={done['jobId']} documentId=\S+ outcome=skipped", 60)
    put_object(s3_bucket, missing["storageKey"], b"Pasal 1\n\nIsi qanun yang diunggah kemudian.\n")
    _send(unique_topics, record_bytes(missing))  # the partner re-publishes after the fix
    # Each stage has its own topic, so a terminal event may arrive before an earlier stage's:
    # wait for every event expected, then prove nothing more arrives.
    reader.read(
        lambda ms: (
            len(reader.of(missing["jobId"])) == 1 + len(BORN_DIGITAL)
            and len(reader.of(done["jobId"])) == len(BORN_DIGITAL)
        )
    )
    reader.settle(1.0)

    assert follows_contract_order(reader.of(done["jobId"]), BORN_DIGITAL)  # nothing new
    missing_events = [m.wire for m in reader.of(missing["jobId"])]
    assert missing_events == [("failed", "failed", 100), *BORN_DIGITAL]
    (rejected,) = reader.of(no_key["jobId"])
    assert (rejected.wire, rejected.value["aiDocumentId"]) == (("failed", "failed", 100), None)
    assert "storageKey" in rejected.value["error"]
    assert all(schema_errors(m.value) == [] for m in reader.messages)
    assert {m.key for m in reader.messages} == {done["jobId"], missing["jobId"], no_key["jobId"]}
    assert IngestionJob.objects.get(partner_job_id=missing["jobId"]).state == JobState.DONE
    assert Document.objects.count() == 2
    assert "outcome=error" in worker.log  # the record without JSON: logged, no event
    worker.wait_for(r"outcome=indexed", count=2)
    assert committed_offset(unique_topics) == 6
    reader.close()
