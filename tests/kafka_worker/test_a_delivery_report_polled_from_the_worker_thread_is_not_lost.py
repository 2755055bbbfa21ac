"""The worker's Kafka thread calls ``publisher.poll()`` while its database thread delivers
stage events through the same producer: every event still gets its delivery report, ends
published and reaches its topic, in order."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from confluent_kafka import Consumer

from partner_events.publisher import Delivery, KafkaPublisher, OutgoingEvent, producer_config
from tests.harness.fixtures import KafkaTopics

pytestmark = [pytest.mark.kafka]

EVENTS = 60


def _read(topics: KafkaTopics, topic: str, count: int, timeout: float = 30.0) -> list[Any]:
    consumer = Consumer(
        {
            "bootstrap.servers": topics.bootstrap,
            "group.id": topics.group_id,
            "auto.offset.reset": "earliest",
        }
    )
    consumer.subscribe([topic])
    received: list[Any] = []
    deadline = time.monotonic() + timeout
    try:
        while len(received) < count and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                received.append(message)
    finally:
        consumer.close()
    return received


def test_deliveries_while_another_thread_polls_all_end_published(
    unique_topics: KafkaTopics,
) -> None:
    publisher = KafkaPublisher(producer_config(unique_topics.bootstrap, None, 10.0))
    topic = unique_topics.stage_topics["indexed"]
    stop = threading.Event()

    def poll_like_the_worker_loop() -> None:
        while not stop.is_set():
            publisher.poll()

    poller = threading.Thread(target=poll_like_the_worker_loop)
    poller.start()
    try:
        results = [
            publisher.deliver([OutgoingEvent("indexed", topic, "job-1", {"n": n})])[0]
            for n in range(EVENTS)
        ]
    finally:
        stop.set()
        poller.join()
        publisher.close()

    assert [r.status for r in results] == [Delivery.PUBLISHED] * EVENTS
    values = [m.value() for m in _read(unique_topics, topic, EVENTS)]
    assert values == [f'{{"n":{n}}}'.encode() for n in range(EVENTS)]
