"""Partition watermarks for the lag gauges and the stall detector, from an admin client.

The consumer's own ``get_watermark_offsets`` sends its ListOffsets request on the
connection that carries the fetch long-poll, so it waits out ``fetch.wait.max.ms`` (500 ms)
per partition: every lag sample stalled the worker loop for about two seconds on four
partitions (``bench/kafka_worker.py`` showed it as one slow round in two). An admin client
has its own connection and asks for every partition in one request, in about a
millisecond.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from confluent_kafka import IsolationLevel, TopicPartition
from confluent_kafka.admin import AdminClient, OffsetSpec

from partner_events.worker.offsets import TopicPartitionKey

QUERY_TIMEOUT_S = 1.0  # a broker that does not answer this fast skips one lag sample


class Watermarks:
    """High and low watermarks of partitions, as the worker's consumer would read them."""

    def __init__(self, bootstrap: str, security: dict[str, Any]) -> None:
        self._admin = AdminClient({"bootstrap.servers": bootstrap, **security})

    def latest(self, partitions: Iterable[TopicPartitionKey]) -> dict[TopicPartitionKey, int]:
        return self._query(partitions, OffsetSpec.latest())

    def earliest(self, partitions: Iterable[TopicPartitionKey]) -> dict[TopicPartitionKey, int]:
        return self._query(partitions, OffsetSpec.earliest())

    def _query(
        self, partitions: Iterable[TopicPartitionKey], spec: OffsetSpec
    ) -> dict[TopicPartitionKey, int]:
        wanted = {TopicPartition(topic, partition): spec for topic, partition in partitions}
        if not wanted:
            return {}
        # read_committed, as the consumer reads: the high mark is the last stable offset.
        futures = self._admin.list_offsets(
            wanted,
            isolation_level=IsolationLevel.READ_COMMITTED,
            request_timeout=QUERY_TIMEOUT_S,
        )
        return {
            (tp.topic, tp.partition): int(future.result().offset) for tp, future in futures.items()
        }
