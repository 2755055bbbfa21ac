"""Per-partition progress of the Kafka worker, and the stall detector (issue 11 §1).

The worker pauses its partitions past the read-ahead limit and resumes them when the
queue is down to half of it; librdkafka keeps a pause across revoke/loss and
re-assignment, which once left a partition paused for good while the worker sat idle.
The root cause is handled in the worker's rebalance callbacks; this is the second line:
a partition with records left to read that made no progress for ``stall_s`` while the
worker had nothing else to do is logged as an error, counted and resumed, so a stall can
never again be silent.

Progress means a record of the partition was fetched or finished. The lag that counts
here is the sampled high watermark minus the fetch position (see
``KafkaWorker._update_lag``): a deferred record holding the commit is not a stall.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from partner_events.worker.metrics import (
    PARTITION_SINCE_PROGRESS,
    PARTITION_STALLS,
    clear_partition,
)
from partner_events.worker.offsets import TopicPartitionKey

log = logging.getLogger("partner_events.worker")


@dataclass(slots=True)
class PartitionProgress:
    since: float  # monotonic time of the last progress (or of the assignment)
    unread: int | None = None  # records past the fetch position, last sample


class StallWatch:
    def __init__(self, stall_s: float) -> None:
        self.stall_s = stall_s
        self.partitions: dict[TopicPartitionKey, PartitionProgress] = {}

    def assigned(self, keys: set[TopicPartitionKey], now: float) -> None:
        for key in keys:
            self.partitions[key] = PartitionProgress(since=now)

    def forget(self, keys: set[TopicPartitionKey]) -> None:
        for key in keys:
            self.partitions.pop(key, None)
            clear_partition(*key)

    def progressed(self, key: TopicPartitionKey, now: float) -> None:
        part = self.partitions.get(key)
        if part is not None:
            part.since = now

    def sampled(self, key: TopicPartitionKey, unread: int, now: float) -> None:
        part = self.partitions.get(key)
        if part is None:
            return
        part.unread = unread
        PARTITION_SINCE_PROGRESS.labels(key[0], str(key[1])).set(round(now - part.since, 3))

    def stalled(self, now: float, idle_for: float) -> list[TopicPartitionKey]:
        """Partitions to resume: lag, no progress and an idle worker, all past ``stall_s``.

        Each one is logged and counted once per stall: its clock restarts here, so a
        partition that stays stuck is reported again only after another ``stall_s``.
        """
        if idle_for < self.stall_s:
            return []
        found: list[TopicPartitionKey] = []
        for key, part in sorted(self.partitions.items()):
            quiet = now - part.since
            if not part.unread or quiet < self.stall_s:
                continue
            log.error(
                "kafka worker: partition %s[%s] stalled: %s records unread, no progress for %.0fs "
                "while the worker was idle %.0fs; resuming it",
                *key,
                part.unread,
                quiet,
                idle_for,
            )
            PARTITION_STALLS.labels(key[0], str(key[1])).inc()
            part.since = now
            found.append(key)
        return found
