"""A record produced to the real broker comes back to a consumer, key and value intact."""

from __future__ import annotations

import time
import uuid

import pytest
from confluent_kafka import Consumer, Producer

from tests.harness.fixtures import KafkaTopics

pytestmark = pytest.mark.kafka


def _consume_one(
    bootstrap: str, topic: str, group_id: str, timeout: float = 30.0
) -> tuple[bytes | None, bytes | None]:
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group_id,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe([topic])
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                return message.key(), message.value()
        raise AssertionError(f"no record arrived on {topic} within {timeout}s")
    finally:
        consumer.close()


def test_a_record_produced_to_the_input_topic_is_consumed_back(unique_topics: KafkaTopics) -> None:
    value = f'{{"jobId": "{uuid.uuid4()}"}}'.encode()
    producer = Producer({"bootstrap.servers": unique_topics.bootstrap, "acks": "all"})
    producer.produce(unique_topics.input_topic, key=b"doc-1", value=value)
    assert producer.flush(10) == 0

    key, received = _consume_one(
        unique_topics.bootstrap, unique_topics.input_topic, unique_topics.group_id
    )

    assert (key, received) == (b"doc-1", value)


def test_unique_topics_exist_with_the_requested_partitions(unique_topics: KafkaTopics) -> None:
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": unique_topics.bootstrap})
    topics = admin.list_topics(timeout=10).topics

    for name in [unique_topics.input_topic, *unique_topics.stage_topics.values()]:
        assert len(topics[name].partitions) == unique_topics.partitions


@pytest.mark.parametrize("unique_topics", [4], indirect=True)
def test_unique_topics_take_a_partition_count_from_parametrize(unique_topics: KafkaTopics) -> None:
    assert unique_topics.partitions == 4
