"""The broker goes down mid-document: every stage event still arrives once it is back."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from partner_events.models import PublishStatus, StageEvent
from tests.harness.fixtures import KafkaBroker, KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import (
    SCANNED,
    StageReader,
    WorkerProcess,
    follows_contract_order,
    has_events,
    produce,
    put_object,
    record_bytes,
    scanned_pages,
    started_ocr,
    worker_env,
)
from tests.partner_ingest.helpers import doc_uploaded

pytestmark = pytest.mark.kafka


def test_events_pending_during_a_broker_outage_are_drained_in_order_afterwards(
    start_worker: Callable[..., WorkerProcess],
    kafka_broker: KafkaBroker,
    make_unique_topics: Callable[..., KafkaTopics],
    s3_bucket: S3Bucket,
) -> None:
    topics = make_unique_topics(partitions=1, bootstrap=kafka_broker.bootstrap)
    record = doc_uploaded(
        put_object(s3_bucket, "jdih/scan.pdf", scanned_pages(2)), "application/pdf"
    )
    worker = start_worker(worker_env(topics, s3_bucket))
    reader = StageReader(topics)
    produce(topics.bootstrap, topics.input_topic, [record_bytes(record)], partition=0)
    reader.read(started_ocr(record["jobId"]))

    kafka_broker.stop()
    worker.wait_for(rf"jobId={record['jobId']} documentId=\S+ outcome=indexed", 120)
    unpublished = StageEvent.objects.exclude(publish_status=PublishStatus.PUBLISHED).count()
    kafka_broker.start()
    reader.read(has_events(record["jobId"], len(SCANNED)), timeout=120)
    reader.settle(2.0)

    assert unpublished > 0  # the outage really left events in the outbox
    assert follows_contract_order(reader.of(record["jobId"]), SCANNED)
    assert set(StageEvent.objects.values_list("publish_status", flat=True)) == {
        PublishStatus.PUBLISHED
    }
    reader.close()
