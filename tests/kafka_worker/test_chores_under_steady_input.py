"""Under a steady input the worker still runs its chores between records.

The read-ahead queue may never run empty when records arrive as fast as they finish; the
chores (re-running deferred jobs, reclaiming orphans, draining the outbox, releasing held
offsets) must still get their turn, or a deferred record would hold its partition's
commit forever. The broker and the database are replaced here: this is the scheduling.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from partner_events.handler import ConsumerOutcome, HandleOutcome
from partner_events.publisher import NullPublisher
from partner_events.worker import loop as worker_module
from partner_events.worker.config import WorkerConfig
from partner_events.worker.loop import Chores, KafkaWorker, StopFlag


class Record:
    def __init__(self, offset: int) -> None:
        self._offset = offset

    def topic(self) -> str:
        return "doc.uploaded"

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return self._offset

    def value(self) -> bytes:
        return b"{}"

    def error(self) -> None:
        return None


class SteadyConsumer:
    """Hands out one new record on every poll, as a busy input topic does."""

    def __init__(self) -> None:
        self.next_offset = 0

    def poll(self, timeout: float) -> Record:
        self.next_offset += 1
        return Record(self.next_offset)

    def pause(self, partitions: list[Any]) -> None:
        return None

    def resume(self, partitions: list[Any]) -> None:
        return None


class InstantExecutor:
    """Runs nothing; every task is already finished and its kind is remembered."""

    def __init__(self) -> None:
        self.kinds: list[str] = []

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        if fn is worker_module._run_chores:
            self.kinds.append("chores")
            future.set_result(Chores())
        else:
            self.kinds.append("record")
            future.set_result(HandleOutcome(ConsumerOutcome.INDEXED, job_id=str(uuid.uuid4())))
        return future


def test_chores_get_a_turn_while_records_keep_waiting() -> None:
    config = WorkerConfig(
        enabled=True,
        bootstrap="127.0.0.1:1",
        group="g",
        input_topic="doc.uploaded",
        stage_topics_raw={},
        max_retries=1,
        retry_backoff_s=0.01,
        drain_s=1.0,
        metrics_port=None,
        poll_s=0.0,
        maintenance_s=0.0,
    )
    worker = KafkaWorker(config, NullPublisher(), StopFlag())
    real_consumer, real_executor = worker.consumer, worker.executor
    executor = InstantExecutor()
    worker.consumer = SteadyConsumer()  # type: ignore[assignment]
    worker.executor = executor  # type: ignore[assignment]
    worker.waiting.append(Record(0))  # one record already read ahead
    try:
        for _ in range(20):
            worker._tick()
    finally:
        real_consumer.close()
        real_executor.shutdown()

    assert "chores" in executor.kinds
    assert executor.kinds.count("record") >= 5
