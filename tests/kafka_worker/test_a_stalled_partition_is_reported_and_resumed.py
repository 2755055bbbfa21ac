"""The stall detector (issue 11 §1, belt and braces): an assigned partition with lag that
makes no progress while the worker is idle is logged as an error, counted in
``aceh_rag_kafka_partition_stalled_total`` and resumed, after KAFKA_PARTITION_STALL_SECONDS.

The worker runs in this process on the real broker; the test pauses the partition behind
the worker's back, which is what librdkafka did when it kept a pause across a
re-assignment. The records are malformed (no jobId): handled at once, no pipeline run.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from confluent_kafka import TopicPartition
from prometheus_client import REGISTRY

from partner_events.publisher import NullPublisher
from partner_events.worker.config import WorkerConfig
from partner_events.worker.loop import KafkaWorker, StopFlag
from tests.harness.fixtures import KafkaTopics
from tests.kafka_worker.helpers import produce, wait_committed

pytestmark = pytest.mark.kafka
STALL_S = 2.0
RECORDS = 3


def _worker(topics: KafkaTopics, settings: Any) -> KafkaWorker:
    settings.KAFKA_ENABLED = True
    settings.KAFKA_BOOTSTRAP_SERVERS = topics.bootstrap
    settings.KAFKA_CONSUMER_GROUP = topics.group_id
    settings.KAFKA_DOC_UPLOADED_TOPIC = topics.input_topic
    settings.KAFKA_STAGE_TOPICS = topics.stage_topics
    settings.KAFKA_PARTITION_STALL_SECONDS = STALL_S
    config = WorkerConfig.from_settings(session_timeout_ms=6000)
    assert config.stall_s == STALL_S
    # Sample lag often so the test waits for the stall time, not for the sampling period.
    config = replace(config, poll_s=0.05, lag_every_s=0.25, metrics_port=None)
    return KafkaWorker(config, NullPublisher(), StopFlag())


def _tick_until(worker: KafkaWorker, done: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        worker._tick()


def _gauge(name: str, topics: KafkaTopics) -> float | None:
    return REGISTRY.get_sample_value(name, {"topic": topics.input_topic, "partition": "0"})


@pytest.mark.parametrize("unique_topics", [1], indirect=True)
def test_a_partition_left_paused_is_reported_and_resumed_after_the_stall_time(
    unique_topics: KafkaTopics,
    settings: Any,
    caplog: pytest.LogCaptureFixture,
    transactional_db: None,
) -> None:
    caplog.set_level(logging.INFO, logger="partner_events.worker")
    worker = _worker(unique_topics, settings)
    stalls = "aceh_rag_kafka_partition_stalled_total"
    before = _gauge(stalls, unique_topics) or 0.0
    worker.subscribe()
    lags: list[float] = []
    quiet: list[float] = []
    stalls_at_first_record: list[float] = []
    try:
        _tick_until(worker, lambda: bool(worker.assigned), 60)
        worker.consumer.pause([TopicPartition(unique_topics.input_topic, 0)])
        produce(unique_topics.bootstrap, unique_topics.input_topic, [b"{bukan json"] * RECORDS)

        def handled() -> bool:
            lags.append(_gauge("aceh_rag_kafka_consumer_lag", unique_topics) or 0.0)
            quiet.append(
                _gauge("aceh_rag_kafka_partition_seconds_since_progress", unique_topics) or 0.0
            )
            if worker.handled and not stalls_at_first_record:
                stalls_at_first_record.append((_gauge(stalls, unique_topics) or 0.0) - before)
            return worker.handled == RECORDS

        _tick_until(worker, handled, 60)
        _tick_until(worker, lambda: worker.tracker.due() == [], 10)
    finally:
        worker.stop.signal()
        worker._shutdown()

    assert stalls_at_first_record == [1]  # nothing was read before the detector resumed it
    assert (_gauge(stalls, unique_topics) or 0.0) - before == 1
    assert max(lags) == RECORDS
    assert max(quiet) >= STALL_S * 0.9
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "stalled: 3 records unread" in errors[0].getMessage()
    assert wait_committed(unique_topics, RECORDS) == RECORDS
