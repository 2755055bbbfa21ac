"""ingest_event --publish kafka: every stage event reaches its topic, keyed by jobId, in order.

Needs the real broker (``make test``); skipped under ``--no-kafka`` on a developer machine.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer

from partner_events.models import StageEvent
from partner_events.outbox import backlog_size, drain_pending
from partner_events.publisher import KafkaPublisher, producer_config
from tests.harness.fixtures import KafkaTopics
from tests.partner_ingest.helpers import LEGAL_TEXT, doc_uploaded, ingest_event, put_object

pytestmark = [pytest.mark.kafka, pytest.mark.django_db(transaction=True)]


def _consume(topics: KafkaTopics, count: int, timeout: float = 30.0) -> list[Any]:
    consumer = Consumer(
        {
            "bootstrap.servers": topics.bootstrap,
            "group.id": topics.group_id,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe(sorted(set(topics.stage_topics.values())))
    received: list[Any] = []
    try:
        deadline = time.monotonic() + timeout
        while len(received) < count and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                received.append(message)
    finally:
        consumer.close()
    return received


def test_stage_events_arrive_on_their_topics_keyed_by_job_id(
    store_dir: Path, settings: Any, unique_topics: KafkaTopics
) -> None:
    settings.KAFKA_BOOTSTRAP_SERVERS = unique_topics.bootstrap
    settings.KAFKA_STAGE_TOPICS = unique_topics.stage_topics
    record = doc_uploaded(put_object(store_dir, "jdih/q.txt", LEGAL_TEXT.encode()))

    run = ingest_event(record, publish="kafka")

    assert run.code == 0, run.stderr
    messages = _consume(unique_topics, 5)
    assert {m.key() for m in messages} == {record["jobId"].encode()}
    extracted = [
        json.loads(m.value())["progress"]
        for m in messages
        if m.topic() == unique_topics.stage_topics["fetched"]
    ]
    assert extracted == [10, 25]
    assert sorted(json.loads(m.value())["progress"] for m in messages) == [10, 25, 65, 85, 100]
    assert set(StageEvent.objects.values_list("publish_status", flat=True)) == {"published"}


def test_an_unreachable_broker_leaves_the_events_for_the_drain_loop(
    store_dir: Path, settings: Any, unique_topics: KafkaTopics
) -> None:
    settings.KAFKA_STAGE_TOPICS = unique_topics.stage_topics
    record = doc_uploaded(put_object(store_dir, "jdih/q.txt", LEGAL_TEXT.encode()))
    dead = KafkaPublisher(producer_config("127.0.0.1:9", None, 1.0), timeout_s=1.0)

    from partner_events.handler import ConsumerOutcome, handle_record

    outcome = handle_record(json.dumps(record).encode(), publisher=dead)

    assert outcome.outcome is ConsumerOutcome.INDEXED
    assert backlog_size() == 5
    alive = KafkaPublisher(producer_config(unique_topics.bootstrap, None, 10.0))
    assert drain_pending(alive) == 5
    alive.close()
    assert [json.loads(m.value())["progress"] for m in _consume(unique_topics, 5)].count(10) == 1
