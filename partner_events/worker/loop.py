"""``manage.py kafka_worker``: the production consumer of doc.uploaded.

One record at a time runs in a database thread (:func:`partner_events.handler.
handle_record`) while the main thread keeps calling ``poll()``, so a long document never
costs the group membership (max.poll.interval.ms). Records polled meanwhile wait in a
bounded read-ahead queue; past ``WAITING_LIMIT`` every partition is paused (not paused
for every record: a pause drops librdkafka's prefetch and the refetch costs latency), and
resumed once the queue is down to ``RESUME_AT``, so the refetch overlaps the work left.
Every Kafka call stays on the main thread; every database call on the other one.

Offsets are committed by the worker (``enable.auto.commit=false``) once a record's outcome
is saved, at the position :class:`~partner_events.worker.offsets.OffsetTracker` allows: a
``deferred`` record holds its partition's commit until its job — saved in Postgres with
the event — is re-run by this or another worker and reaches an outcome. Between records
the same thread runs the chores of :mod:`partner_events.worker.jobs` and drains the
stage-event outbox.

Rebalances: a partition being revoked while its record runs waits for it (bounded) and
commits; past the bound the new owner's delivery meets the jobId's ``processing`` row and
is deferred, so nothing is published twice. Shutdown: the first SIGTERM/SIGINT stops
fetching, finishes the record in flight (bounded by KAFKA_DRAIN_SECONDS), commits and
flushes; a second one exits at once without committing the record in flight.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition
from django.db import close_old_connections, connections

from partner_events.handler import ConsumerOutcome, HandleOutcome, handle_record
from partner_events.outbox import drain_pending
from partner_events.publisher import Publisher
from partner_events.worker.config import WorkerConfig, admin_config, consumer_config
from partner_events.worker.jobs import reclaim_orphans, resolved_jobs, retry_deferred
from partner_events.worker.metrics import (
    COMMITS,
    CONSUMER_LAG,
    DEFERRED_RERUNS,
    HELD_OFFSETS,
    ORPHANS_RECLAIMED,
    RECORD_SECONDS,
    RECORDS,
)
from partner_events.worker.offsets import OffsetTracker, TopicPartitionKey
from partner_events.worker.stall import StallWatch
from partner_events.worker.watermarks import Watermarks

log = logging.getLogger("partner_events.worker")

EXIT_OK = 0
EXIT_DRAIN_TIMEOUT = 1
EXIT_ABORTED = 130
MAX_HANDLER_BACKOFF_S = 60.0
DRAIN_LIMIT = 500
# Records read ahead while one runs; beyond this the partitions are paused. Records read
# ahead are never committed before they ran, and are dropped when their partition goes.
WAITING_LIMIT = 50
# Resumed while this many still wait: fetching again after a resume took 0.2-0.8 s, which
# a worker resuming only on an empty queue spent idle (bench/kafka_worker.py: +17 ms per
# record in one round of two).
RESUME_AT = WAITING_LIMIT // 2


def _rebalancing_codes() -> frozenset[int]:
    return frozenset(
        {
            KafkaError.ILLEGAL_GENERATION,
            KafkaError.REBALANCE_IN_PROGRESS,
            KafkaError.UNKNOWN_MEMBER_ID,
        }
    )


_REBALANCING = _rebalancing_codes()


class StopFlag:
    """Set by signal handlers: the first signal drains, the second aborts."""

    def __init__(self) -> None:
        self.requested = threading.Event()
        self.abort = threading.Event()

    def signal(self) -> None:
        if self.requested.is_set():
            self.abort.set()
        self.requested.set()


@dataclass(slots=True)
class Task:
    future: Future[Any]
    started: float
    message: Any = None  # the record being handled; None for chores


@dataclass(slots=True)
class Chores:
    orphans: list[str] = field(default_factory=list)
    rerun: HandleOutcome | None = None
    resolved: set[str] = field(default_factory=set)


def canonical_job(outcome: HandleOutcome) -> str | None:
    if outcome.job is not None and outcome.job.partner_job_id is not None:
        return str(outcome.job.partner_job_id)
    try:
        return str(UUID(str(outcome.job_id)))
    except ValueError:
        return None


def _tp(message: Any) -> TopicPartitionKey:
    return (message.topic(), message.partition())


def _key(partition: Any) -> TopicPartitionKey:
    return (partition.topic, partition.partition)


def _logged(callback: Callable[[Any, list[Any]], None]) -> Callable[[Any, list[Any]], None]:
    # An exception escaping a librdkafka callback surfaces as a garbled SystemError.
    def run(consumer: Any, partitions: list[Any]) -> None:
        try:
            callback(consumer, partitions)
        except Exception:
            log.exception("kafka worker: rebalance callback %s failed", callback.__name__)
            raise

    return run


def _run_record(raw: bytes, publisher: Publisher, record: str) -> HandleOutcome:
    close_old_connections()  # a connection Postgres dropped while idle is replaced
    return handle_record(raw, publisher=publisher, record=record)


def _run_chores(config: WorkerConfig, publisher: Publisher, held: set[str], rerun: bool) -> Chores:
    close_old_connections()
    chores = Chores(orphans=reclaim_orphans(config.orphan_grace_s))
    if rerun:
        chores.rerun = retry_deferred(publisher, config.deferred_retry_s)
    drain_pending(publisher, DRAIN_LIMIT)
    chores.resolved = resolved_jobs(held)
    return chores


class KafkaWorker:
    def __init__(self, config: WorkerConfig, publisher: Publisher, stop: StopFlag) -> None:
        self.config = config
        self.publisher = publisher
        self.stop = stop
        self.consumer = Consumer({**consumer_config(config), "on_commit": self._on_commit_logged})
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="kafka-ingest")
        self.tracker = OffsetTracker()
        self.watch = StallWatch(config.stall_s)
        self.watermarks = Watermarks(admin_config(config))
        self.idle_since: float | None = None  # no record running or waiting since then
        self.assigned: set[TopicPartitionKey] = set()
        self.waiting: deque[Any] = deque()  # fetched while busy; handled before new polls
        self.task: Task | None = None
        self.paused = False
        self.aborting = False
        self.retry_at = 0.0
        self.failures = 0
        self.next_chores = 0.0
        self.next_lag = 0.0
        self.handled = 0
        self.last_was_record = False  # chores and waiting records take turns when both due

    # --- the loop ------------------------------------------------------------------------

    def run(self) -> int:
        self.subscribe()
        while not self.stop.requested.is_set():
            self._tick()
        return self._shutdown()

    def subscribe(self) -> None:
        self.consumer.subscribe(
            [self.config.input_topic],
            on_assign=_logged(self._on_assign),
            on_revoke=_logged(self._on_revoke),
            on_lost=_logged(self._on_lost),
        )
        log.info("kafka worker: consuming %s as %s", self.config.input_topic, self.config.group)

    def _tick(self) -> None:
        task = self.task
        # While a task runs, wait on it rather than in poll(), so its end is seen at once.
        message = self.consumer.poll(0 if task is not None else self.config.poll_s)
        if message is not None:
            self._on_message(message)
        if task is not None and message is None:
            wait([task.future], timeout=self.config.poll_s)
        self._check_task()
        self.publisher.poll()
        now = time.monotonic()
        if self.task is None and now >= self.retry_at and not self.stop.requested.is_set():
            self._start_next(now)
        self._note_idle(now)
        if now >= self.next_lag:
            self.next_lag = now + self.config.lag_every_s
            self._update_lag()
            self._resume_stalled(now)
        self._commit_due()

    def _note_idle(self, now: float) -> None:
        # Chores do not count: they run every few seconds, idle or not.
        if self.waiting or (self.task is not None and self.task.message is not None):
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = now

    def _start_next(self, now: float) -> None:
        """A waiting record, or the chores when due.

        Under a steady input the read-ahead queue may never run empty, so due chores take
        every other turn: otherwise deferred jobs would never re-run (their offsets holding
        the partition's commit), orphans never be reclaimed and the outbox never drained.
        """
        chores_due = now >= self.next_chores
        if self.waiting and not (chores_due and self.last_was_record):
            self._start_record(self.waiting.popleft())
            if self.paused and len(self.waiting) <= RESUME_AT:
                self._resume()
        elif chores_due:
            self._start_chores()
        elif self.paused:
            self._resume()

    def _on_message(self, message: Any) -> None:
        error = message.error()
        if error is not None:
            log.warning("kafka worker: consumer error: %s", error)
            return
        self.watch.progressed(_tp(message), time.monotonic())
        if self.task is not None or self.waiting or time.monotonic() < self.retry_at:
            self.waiting.append(message)
            if len(self.waiting) >= WAITING_LIMIT:
                self._pause()  # enough read ahead; poll() keeps the membership alive
            return
        self._start_record(message)

    def _start_record(self, message: Any) -> None:
        self.tracker.start(_tp(message), message.offset())
        record = f"{message.topic()}:{message.partition()}:{message.offset()}"
        future = self.executor.submit(_run_record, message.value() or b"", self.publisher, record)
        self.task = Task(future, time.monotonic(), message)
        self.last_was_record = True

    def _start_chores(self) -> None:
        held = self.tracker.held_jobs()
        future = self.executor.submit(_run_chores, self.config, self.publisher, held, True)
        self.task = Task(future, time.monotonic())
        self.last_was_record = False

    def _check_task(self) -> None:
        task = self.task
        if task is None or not task.future.done():
            return
        self.task = None
        if task.message is None:
            self._after_chores(task)
        else:
            self._after_record(task)

    def _after_record(self, task: Task) -> None:
        message = task.message
        tp, offset = _tp(message), message.offset()
        elapsed = time.monotonic() - task.started
        try:
            outcome: HandleOutcome = task.future.result()
        except Exception:
            delay = min(self.config.retry_backoff_s * 2**self.failures, MAX_HANDLER_BACKOFF_S)
            self.failures += 1
            log.exception(
                "record %s[%s]@%s: handling raised; read again in %.1fs", *tp, offset, delay
            )
            self.tracker.abandon(tp, offset)
            if tp in self.assigned:
                self.waiting.appendleft(message)
            self.retry_at = time.monotonic() + delay
            return
        self.failures = 0
        self.handled += 1
        self.watch.progressed(tp, time.monotonic())
        RECORDS.labels(outcome=outcome.outcome.value).inc()
        RECORD_SECONDS.observe(elapsed)
        deferred = outcome.outcome is ConsumerOutcome.DEFERRED
        kept = self.tracker.finish(
            tp, offset, deferred_job=canonical_job(outcome) if deferred else None
        )
        HELD_OFFSETS.set(self.tracker.open_count())
        log.info(
            "record %s[%s]@%s: jobId=%s documentId=%s outcome=%s commit=%s in %.2fs",
            *tp,
            offset,
            outcome.job_id or "-",
            outcome.document_id or "-",
            outcome.outcome.value,
            "held" if deferred else ("yes" if kept else "new-owner"),
            elapsed,
            extra={
                "jobId": outcome.job_id,
                "documentId": str(outcome.document_id) if outcome.document_id else None,
                "outcome": outcome.outcome.value,
            },
        )

    def _after_chores(self, task: Task) -> None:
        self.next_chores = time.monotonic() + self.config.maintenance_s
        try:
            chores: Chores = task.future.result()
        except Exception:
            log.exception("kafka worker: database chores failed; trying again later")
            return
        ORPHANS_RECLAIMED.inc(len(chores.orphans))
        if chores.rerun is not None:
            DEFERRED_RERUNS.labels(outcome=chores.rerun.outcome.value).inc()
            if chores.rerun.outcome is not ConsumerOutcome.DEFERRED:
                self.next_chores = 0.0  # more may be due; check again at once
        released = self.tracker.release(chores.resolved)
        HELD_OFFSETS.set(self.tracker.open_count())
        if released:
            log.info("kafka worker: %s deferred records resolved; offsets released", released)

    # --- partitions ----------------------------------------------------------------------

    def _partitions(self, keys: set[TopicPartitionKey]) -> list[Any]:
        return [TopicPartition(topic, partition) for topic, partition in sorted(keys)]

    def _pause(self) -> None:
        if not self.paused and self.assigned:
            self.consumer.pause(self._partitions(self.assigned))
        self.paused = True

    def _resume(self) -> None:
        if self.assigned:
            self.consumer.resume(self._partitions(self.assigned))
        self.paused = False

    def _on_assign(self, consumer: Any, partitions: list[Any]) -> None:
        """Cooperative: ``partitions`` are only the new ones; the rest keep their state.

        librdkafka remembers a pause across a revoke or loss and a later re-assignment,
        so every new partition is set, explicitly, to the worker's current pause state.
        """
        consumer.incremental_assign(partitions)
        keys = {_key(p) for p in partitions}
        self.assigned |= keys
        self.watch.assigned(keys, time.monotonic())
        if not partitions:
            return
        if self.paused or self.stop.requested.is_set():
            consumer.pause(partitions)
            self.paused = True
        else:
            consumer.resume(partitions)
        log.info("kafka worker: assigned %s%s", sorted(keys), " (paused)" if self.paused else "")

    def _on_revoke(self, consumer: Any, partitions: list[Any]) -> None:
        keys = {_key(p) for p in partitions}
        task = self.task
        if task is not None and task.message is not None and _tp(task.message) in keys:
            self._wait_for_task(self.config.revoke_wait_s, "rebalance")
        self._commit_due(keys, sync=True)
        self._forget(consumer, partitions)
        log.info("kafka worker: revoked %s", sorted(keys))

    def _on_lost(self, consumer: Any, partitions: list[Any]) -> None:
        self._forget(consumer, partitions)
        log.warning("kafka worker: lost %s without commit", sorted(_key(p) for p in partitions))

    def _forget(self, consumer: Any, partitions: list[Any]) -> None:
        """A partition leaves resumed: a pause must not outlive this assignment."""
        keys = {_key(p) for p in partitions}
        if partitions:
            try:
                consumer.resume(partitions)
            except KafkaException as exc:  # _on_assign sets the state again anyway
                log.warning("kafka worker: resume of leaving %s failed: %s", sorted(keys), exc)
        self.tracker.drop(keys)
        self.assigned -= keys
        self.waiting = deque(m for m in self.waiting if _tp(m) not in keys)
        self.watch.forget(keys)

    def _wait_for_task(self, limit_s: float, why: str) -> bool:
        """Keep the group alive while the task finishes; False when ``limit_s`` ran out."""
        deadline = time.monotonic() + limit_s
        while self.task is not None and not self.aborting:
            if self.stop.abort.is_set():
                return False
            if time.monotonic() >= deadline:
                log.warning("kafka worker: %s: in-flight record still running", why)
                return False
            try:
                self.task.future.result(timeout=0.2)
            except Exception:  # reported by _check_task
                pass
            self._check_task()
        return self.task is None

    # --- offsets and lag -----------------------------------------------------------------

    def _commit_due(
        self, keys: set[TopicPartitionKey] | None = None, *, sync: bool = False
    ) -> None:
        due = self.tracker.due(self.assigned if keys is None else keys & self.assigned)
        if not due:
            return
        offsets = [TopicPartition(topic, partition, offset) for topic, partition, offset in due]
        try:
            if sync:
                self.consumer.commit(offsets=offsets, asynchronous=False)
            else:
                self.consumer.commit(offsets=offsets, asynchronous=True)
        except KafkaException as exc:
            COMMITS.labels(result="error").inc()
            log.warning("kafka worker: commit of %s failed: %s", due, exc)
            return
        self.tracker.committed(due)
        COMMITS.labels(result="sent").inc()
        log.debug("kafka worker: committed %s", due)

    def _on_commit_logged(self, error: Any, partitions: list[Any]) -> None:
        try:
            self._on_commit(error, partitions)
        except Exception:
            log.exception("kafka worker: commit callback failed")

    def _on_commit(self, error: Any, partitions: list[Any]) -> None:
        failed = [p for p in partitions if p.error is not None]
        if error is None and not failed:
            return
        COMMITS.labels(result="error").inc()
        # A commit racing a rebalance is refused by the coordinator; it is simply re-sent.
        level = (
            logging.INFO if error is not None and error.code() in _REBALANCING else logging.WARNING
        )
        log.log(level, "kafka worker: commit failed (%s); will commit again", error or failed)
        for partition in failed or partitions:
            self.tracker.commit_failed(_key(partition))

    def _update_lag(self) -> None:
        """Per partition, the lag from the commit position (the metric) and what is still
        unread from the fetch position (the stall detector's: a deferred record holding
        the commit keeps the lag up while nothing is left to read)."""
        partitions = self._partitions(self.assigned)
        if not partitions:
            return
        now = time.monotonic()
        try:
            positions = self.consumer.position(partitions)
            fetched = [p for p in positions if p.offset is not None and p.offset >= 0]
            # Never fetched (e.g. paused since its assignment): it starts at the group's
            # commit, or at the low watermark without one (auto.offset.reset=earliest).
            unknown = [p for p in positions if p.offset is None or p.offset < 0]
            starts = self.consumer.committed(unknown, timeout=1.0) if unknown else []
            sampled = [*fetched, *starts]
            highs = self.watermarks.latest(_key(p) for p in sampled)
            lows = self.watermarks.earliest(_key(p) for p in sampled if p.offset < 0)
            for partition in sampled:
                key = _key(partition)
                # A never-fetched partition without a commit needs its low mark too.
                if key in highs and (partition.offset >= 0 or key in lows):
                    self._sample(partition, lows.get(key, 0), highs[key], now)
        except KafkaException as exc:
            log.debug("kafka worker: lag not measured: %s", exc)

    def _sample(self, partition: Any, low: int, high: int, now: float) -> None:
        offset = partition.offset
        unread = max(0, high - (offset if offset is not None and offset >= 0 else low))
        current = self._current(partition)
        lag = unread if current is None else max(0, high - current)
        CONSUMER_LAG.labels(partition.topic, str(partition.partition)).set(lag)
        self.watch.sampled(_key(partition), unread, now)

    def _current(self, position: Any) -> int | None:
        """The next offset this worker will handle on the partition, when known."""
        tracked = self.tracker.partitions.get(_key(position))
        at = tracked.position() if tracked is not None else None
        current = at if at is not None else position.offset
        return current if current is not None and current >= 0 else None

    def _resume_stalled(self, now: float) -> None:
        if self.idle_since is None or self.stop.requested.is_set():
            return
        stalled = self.watch.stalled(now, idle_for=now - self.idle_since)
        if stalled:
            self.consumer.resume(self._partitions(set(stalled)))

    # --- shutdown ------------------------------------------------------------------------

    def _shutdown(self) -> int:
        log.info(
            "kafka worker: stopping; finishing the record in flight (at most %.0fs)",
            self.config.drain_s,
        )
        self._pause()
        finished = self._drain_task()
        if self.stop.abort.is_set():
            return self.abort()
        if not finished:
            log.error("kafka worker: drain time exceeded; the record in flight is not committed")
            return self.abort(EXIT_DRAIN_TIMEOUT)
        self._commit_due(sync=True)
        self.publisher.close()
        self.consumer.close()
        self.executor.submit(connections.close_all)  # the thread's own database session
        self.executor.shutdown(wait=True)
        log.info("kafka worker: stopped cleanly after %s records", self.handled)
        return EXIT_OK

    def _drain_task(self) -> bool:
        deadline = time.monotonic() + self.config.drain_s
        while self.task is not None:
            if self.stop.abort.is_set() or time.monotonic() >= deadline:
                return False
            message = self.consumer.poll(self.config.poll_s)
            if message is not None:
                self._on_message(message)
            self._check_task()
            self.publisher.poll()
        return True

    def abort(self, code: int = EXIT_ABORTED) -> int:
        """Leave at once: the record in flight is not committed (it is redelivered)."""
        self.aborting = True
        log.warning("kafka worker: exiting now without committing the record in flight")
        closer = threading.Thread(target=self._close_quietly, daemon=True)
        closer.start()
        closer.join(5.0)
        logging.shutdown()
        os._exit(code)

    def _close_quietly(self) -> None:
        try:
            self.consumer.close()
        except Exception:
            log.debug("consumer close failed during abort", exc_info=True)
