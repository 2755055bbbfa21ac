"""A private broker can be taken down and brought back with its records intact."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from scripts.kafka import is_ready
from tests.harness.fixtures import KafkaBroker, KafkaTopics

pytestmark = pytest.mark.kafka


def test_records_written_before_an_outage_are_readable_after_restart(
    kafka_broker: KafkaBroker, make_unique_topics: Callable[..., KafkaTopics]
) -> None:
    topics = make_unique_topics(partitions=1, bootstrap=kafka_broker.bootstrap)
    producer = Producer({"bootstrap.servers": kafka_broker.bootstrap, "acks": "all"})
    producer.produce(topics.input_topic, value=b"before-outage")
    assert producer.flush(10) == 0

    kafka_broker.stop()
    assert not kafka_broker.running
    assert not is_ready(kafka_broker.bootstrap, timeout=1.0)
    kafka_broker.start()

    consumer = Consumer({"bootstrap.servers": kafka_broker.bootstrap, "group.id": topics.group_id})
    consumer.assign([TopicPartition(topics.input_topic, 0, 0)])
    try:
        messages = consumer.consume(num_messages=1, timeout=30)
    finally:
        consumer.close()
    assert [m.value() for m in messages if m.error() is None] == [b"before-outage"]
