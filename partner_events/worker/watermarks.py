"""Partition watermarks for the lag gauges and the stall detector, from an admin client.

The consumer's own ``get_watermark_offsets`` sends its ListOffsets request on the
connection that carries the fetch long-poll, so it waits out ``fetch.wait.max.ms`` (500 ms)
per partition: every lag sample stalled the worker loop for about two seconds on four
partitions (``bench/kafka_worker.py`` showed it as one slow round in two). An admin client
has its own connection and asks for every partition in one request, in about a
millisecond. A partition whose watermark cannot be read is left out of that sample.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from confluent_kafka import IsolationLevel, TopicPartition
from confluent_kafka.admin import AdminClient, OffsetSpec

from partner_events.worker.offsets import TopicPartitionKey

log = logging.getLogger(__name__)

# A broker that does not answer this fast skips one lag sample. A sample may ask twice
# (high marks, then low marks of never-fetched partitions), after the consumer's own
# committed() of up to 1 s: the loop waits 3 s at worst, every lag_every_s.
QUERY_TIMEOUT_S = 1.0


class Watermarks:
    """High and low watermarks of partitions, as the worker's consumer would read them."""

    def __init__(self, admin_config: dict[str, Any]) -> None:
        self._admin = AdminClient(admin_config)

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
        found: dict[TopicPartitionKey, int] = {}
        # Any failure only loses this sample: the worker loop must never die of a gauge.
        try:
            # read_committed, as the consumer reads: the high mark is the last stable offset.
            futures = self._admin.list_offsets(
                wanted,
                isolation_level=IsolationLevel.READ_COMMITTED,
                request_timeout=QUERY_TIMEOUT_S,
            )
        except Exception as exc:
            log.debug("kafka worker: watermarks not read: %s", exc)
            return found
        for tp, future in futures.items():
            try:
                found[(tp.topic, tp.partition)] = int(future.result().offset)
            except Exception as exc:  # one partition's leader away: the others still count
                log.debug(
                    "kafka worker: watermark of %s[%s] not read: %s", tp.topic, tp.partition, exc
                )
        return found
