"""Where stage events go once they are in the outbox: Kafka, stdout, or nowhere.

A publisher only delivers; the outbox (:mod:`partner_events.outbox`) decides what to send
and in which order, and records each :class:`DeliveryResult` on the event's row. Every
``deliver`` call returns one result per event, in order, and never raises for a broker
problem: the contract requires processing to continue when publishing fails.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, TextIO

from confluent_kafka import KafkaException, Producer
from django.conf import settings

from partner_events.status import record_key, record_value

log = logging.getLogger(__name__)

DEFAULT_PUBLISH_TIMEOUT_SECONDS = 10.0
DEFAULT_COOLDOWN_SECONDS = 5.0


class Delivery(StrEnum):
    PUBLISHED = "published"
    FAILED = "failed"
    NOT_APPLICABLE = "not_applicable"


@dataclass(frozen=True, slots=True)
class OutgoingEvent:
    """One outbox row as a publisher sees it."""

    routing_key: str
    topic: str
    key: str
    value: dict[str, Any]


@dataclass(frozen=True, slots=True)
class DeliveryResult:
    status: Delivery
    error: str = ""


PUBLISHED = DeliveryResult(Delivery.PUBLISHED)
NOT_APPLICABLE = DeliveryResult(Delivery.NOT_APPLICABLE)


class Publisher(Protocol):
    name: str
    # True when a successful delivery reaches the partner (Kafka). Replays through any
    # other publisher (stdout inspection) leave the outbox's publish status untouched.
    delivers_to_partner: bool

    def ready(self) -> bool: ...

    def deliver(self, events: Sequence[OutgoingEvent]) -> list[DeliveryResult]: ...

    def poll(self) -> None: ...

    def close(self) -> None: ...


class NullPublisher:
    """Admin uploads and ``--publish none``: events are logged, never sent."""

    name = "none"
    delivers_to_partner = False

    def ready(self) -> bool:
        return True

    def deliver(self, events: Sequence[OutgoingEvent]) -> list[DeliveryResult]:
        return [NOT_APPLICABLE for _ in events]

    def poll(self) -> None:
        return None

    def close(self) -> None:
        return None


def stdout_line(event: OutgoingEvent) -> str:
    """The ``ingest_event --publish stdout`` line (DESIGN.md)."""
    record = {
        "routingKey": event.routing_key,
        "topic": event.topic,
        "key": event.key,
        "value": event.value,
    }
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


class StdoutPublisher:
    """One JSON line per event, in publication order; counts as published."""

    name = "stdout"
    delivers_to_partner = False

    def __init__(self, stream: TextIO | Any | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout

    def ready(self) -> bool:
        return True

    def deliver(self, events: Sequence[OutgoingEvent]) -> list[DeliveryResult]:
        for event in events:
            self.stream.write(stdout_line(event) + "\n")
        self.stream.flush()
        return [PUBLISHED for _ in events]

    def poll(self) -> None:
        return None

    def close(self) -> None:
        self.stream.flush()


def producer_config(
    bootstrap: str, security: dict[str, Any] | None, timeout_s: float
) -> dict[str, Any]:
    """The idempotent producer: per-partition order and no duplicates from its own retries.

    ``message.timeout.ms`` equals our wait, so when :meth:`KafkaPublisher.deliver` stops
    waiting librdkafka has given up too: a message we record as failed is never delivered
    behind the outbox's back, which keeps the per-job order of the retry.
    """
    return {
        "bootstrap.servers": bootstrap,
        "enable.idempotence": True,
        "acks": "all",
        "linger.ms": 5,
        "message.timeout.ms": max(1000, int(timeout_s * 1000)),
        "client.id": "aceh-rag-stage-events",
        **(security or {}),
    }


class KafkaPublisher:
    """confluent-kafka producer; one delivery report per event, waited for (bounded).

    After a failed delivery the publisher rests for ``cooldown_s`` (``ready()`` is False) so
    a broker outage does not add the full timeout to every stage of every document; the
    events stay in the outbox for :func:`partner_events.outbox.drain_pending`.

    The worker shares one publisher between its threads: the database thread delivers
    while the Kafka thread calls :meth:`poll`. A delivery report served by ``poll`` still
    reaches its event's result, but ``flush`` in :meth:`deliver` then sleeps out its
    10 ms poll slice before it sees the queue empty; so ``poll`` leaves the reports to a
    ``deliver`` in progress (it serves itself) and only serves stragglers between them.
    """

    name = "kafka"
    delivers_to_partner = True

    def __init__(
        self,
        config: dict[str, Any],
        *,
        timeout_s: float = DEFAULT_PUBLISH_TIMEOUT_SECONDS,
        cooldown_s: float = DEFAULT_COOLDOWN_SECONDS,
    ) -> None:
        self.config = config
        self.timeout_s = timeout_s
        self.cooldown_s = cooldown_s
        self._producer: Any = None
        self._resting_until = 0.0
        self._fatal = False
        self._delivering = threading.Lock()

    @classmethod
    def from_settings(cls) -> KafkaPublisher:
        timeout = float(settings.KAFKA_PUBLISH_TIMEOUT_SECONDS)
        config = producer_config(
            str(settings.KAFKA_BOOTSTRAP_SERVERS),
            dict(settings.KAFKA_SECURITY or {}),
            timeout,
        )
        return cls(config, timeout_s=timeout)

    @property
    def producer(self) -> Any:
        if self._producer is None or self._fatal:
            if self._producer is not None:
                log.warning("kafka publisher: fatal producer error; creating a new producer")
            self._producer = Producer(self.config)
            self._fatal = False
        return self._producer

    def ready(self) -> bool:
        return time.monotonic() >= self._resting_until

    def deliver(self, events: Sequence[OutgoingEvent]) -> list[DeliveryResult]:
        with self._delivering:
            return self._deliver(events)

    def _deliver(self, events: Sequence[OutgoingEvent]) -> list[DeliveryResult]:
        started = time.monotonic()
        results: list[DeliveryResult | None] = [None] * len(events)
        producer = self.producer
        for index, event in enumerate(events):
            refused = self._produce(producer, event, results, index)
            if refused is not None:
                results[index] = refused
        producer.flush(self.timeout_s + 2.0)
        missing = DeliveryResult(Delivery.FAILED, "tidak ada laporan pengiriman")
        final = [r or missing for r in results]
        failed = sum(1 for r in final if r.status is Delivery.FAILED)
        if failed:
            self._resting_until = time.monotonic() + self.cooldown_s
        log.info(
            "kafka publisher: %s events, %s failed, in %.3fs",
            len(events),
            failed,
            time.monotonic() - started,
        )
        return final

    def _produce(
        self,
        producer: Any,
        event: OutgoingEvent,
        results: list[DeliveryResult | None],
        index: int,
    ) -> DeliveryResult | None:
        def on_delivery(err: Any, _msg: Any) -> None:
            if err is None:
                results[index] = PUBLISHED
                return
            if getattr(err, "fatal", lambda: False)():
                self._fatal = True
            results[index] = DeliveryResult(Delivery.FAILED, str(err))

        try:
            producer.produce(
                event.topic,
                key=record_key(event.key),
                value=record_value(event.value),
                on_delivery=on_delivery,
            )
        except (BufferError, KafkaException) as exc:
            return DeliveryResult(Delivery.FAILED, str(exc))
        producer.poll(0)
        return None

    def poll(self) -> None:
        if self._producer is None or not self._delivering.acquire(blocking=False):
            return  # a deliver() in progress serves its own delivery reports
        try:
            self._producer.poll(0)
        finally:
            self._delivering.release()

    def close(self) -> None:
        if self._producer is not None:
            remaining = self._producer.flush(self.timeout_s)
            if remaining:
                log.warning("kafka publisher: %s messages not flushed at close", remaining)


PUBLISHER_NAMES = ("stdout", "kafka", "none")


def get_publisher(name: str, *, stream: TextIO | Any | None = None) -> Publisher:
    """The publisher for a ``--publish`` choice."""
    if name == "stdout":
        return StdoutPublisher(stream)
    if name == "kafka":
        return KafkaPublisher.from_settings()
    if name == "none":
        return NullPublisher()
    raise ValueError(f"unknown publisher {name!r}; use one of {', '.join(PUBLISHER_NAMES)}")
