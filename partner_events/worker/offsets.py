"""Which offset each partition may commit: never past a record whose outcome is not saved.

The worker runs one record at a time, so within a partition offsets finish in order. A
partition's commit position is the lowest offset still open — the record in flight or a
``deferred`` record (held until its job is resolved from the database) — or, with none
open, the offset after the last finished record. This goes beyond the contract, which
allows a later commit to move past a deferred record: here the deferred record's offset
is held back, and the job itself is re-run from Postgres by the worker, so neither the
record nor the job can be silently skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TopicPartitionKey = tuple[str, int]


@dataclass(slots=True)
class PartitionOffsets:
    last_done: int | None = None
    in_flight: int | None = None
    held: dict[int, str] = field(default_factory=dict)  # deferred offset → jobId
    committed: int | None = None  # the last position sent to the broker

    def position(self) -> int | None:
        """The offset to commit: the next record a new owner must read."""
        open_offsets = [*self.held]
        if self.in_flight is not None:
            open_offsets.append(self.in_flight)
        if open_offsets:
            return min(open_offsets)
        return None if self.last_done is None else self.last_done + 1


class OffsetTracker:
    def __init__(self) -> None:
        self.partitions: dict[TopicPartitionKey, PartitionOffsets] = {}

    def _get(self, tp: TopicPartitionKey) -> PartitionOffsets:
        return self.partitions.setdefault(tp, PartitionOffsets())

    def start(self, tp: TopicPartitionKey, offset: int) -> None:
        self._get(tp).in_flight = offset

    def abandon(self, tp: TopicPartitionKey, offset: int) -> None:
        """The record will be read again (a handler crash): nothing finished."""
        part = self.partitions.get(tp)
        if part is not None and part.in_flight == offset:
            part.in_flight = None

    def finish(
        self, tp: TopicPartitionKey, offset: int, *, deferred_job: str | None = None
    ) -> bool:
        """Record the saved outcome; False when the partition was given up meanwhile."""
        part = self.partitions.get(tp)
        if part is None:
            return False
        if part.in_flight == offset:
            part.in_flight = None
        if deferred_job is not None:
            part.held[offset] = deferred_job
        part.last_done = offset if part.last_done is None else max(part.last_done, offset)
        return True

    def held_jobs(self) -> set[str]:
        return {job for part in self.partitions.values() for job in part.held.values()}

    def release(self, resolved_jobs: set[str]) -> int:
        """Deferred records whose jobs reached an outcome no longer hold their partition."""
        released = 0
        for part in self.partitions.values():
            for offset, job in list(part.held.items()):
                if job in resolved_jobs:
                    del part.held[offset]
                    released += 1
        return released

    def due(self, tps: set[TopicPartitionKey] | None = None) -> list[tuple[str, int, int]]:
        """(topic, partition, offset) whose position moved past the last commit."""
        due: list[tuple[str, int, int]] = []
        for tp, part in self.partitions.items():
            if tps is not None and tp not in tps:
                continue
            position = part.position()
            if position is not None and (part.committed is None or position > part.committed):
                due.append((tp[0], tp[1], position))
        return due

    def committed(self, commits: list[tuple[str, int, int]]) -> None:
        for topic, partition, offset in commits:
            part = self.partitions.get((topic, partition))
            if part is not None:
                part.committed = offset

    def commit_failed(self, tp: TopicPartitionKey) -> None:
        part = self.partitions.get(tp)
        if part is not None:
            part.committed = None

    def drop(self, tps: set[TopicPartitionKey]) -> None:
        for tp in tps:
            self.partitions.pop(tp, None)

    def open_count(self) -> int:
        return sum(len(part.held) for part in self.partitions.values())
