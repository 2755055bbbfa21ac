"""The Kafka worker's effective configuration and its startup refusals.

The worker refuses to start (a clear Indonesian message, non-zero exit) when Kafka is
disabled, the stage-topic map is incomplete, or the broker lacks the input topic or a
destination topic: the contract says broker auto-creation is never assumed, so a missing
topic is a deployment error, not something to paper over.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from dataclasses import dataclass, field, replace
from typing import Any

from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from partner_events.status import validate_stage_topics

log = logging.getLogger(__name__)


class StartupRefused(Exception):
    """The worker must not start; the message is for the operator (Indonesian)."""


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    enabled: bool
    bootstrap: str
    group: str
    input_topic: str
    stage_topics_raw: Any  # as configured; checked by :func:`check_startup`
    max_retries: int
    retry_backoff_s: float
    drain_s: float
    metrics_port: int | None  # None: no metrics server; 0: an ephemeral port
    security: dict[str, Any] = field(default_factory=dict)
    poll_s: float = 0.2
    maintenance_s: float = 2.0
    deferred_retry_s: float = 5.0
    orphan_grace_s: float = 60.0
    revoke_wait_s: float = 60.0
    lag_every_s: float = 10.0
    admin_timeout_s: float = 10.0
    session_timeout_ms: int = 45_000
    stall_s: float = 60.0  # lag, no progress, worker idle this long: a stalled partition

    @classmethod
    def from_settings(cls, **overrides: Any) -> WorkerConfig:
        config = cls(
            enabled=bool(settings.KAFKA_ENABLED),
            bootstrap=str(settings.KAFKA_BOOTSTRAP_SERVERS),
            group=str(settings.KAFKA_CONSUMER_GROUP),
            input_topic=str(settings.KAFKA_DOC_UPLOADED_TOPIC),
            stage_topics_raw=settings.KAFKA_STAGE_TOPICS,
            max_retries=int(settings.KAFKA_MAX_RETRIES),
            retry_backoff_s=float(settings.KAFKA_RETRY_BACKOFF_SECONDS),
            drain_s=float(settings.KAFKA_DRAIN_SECONDS),
            metrics_port=int(settings.KAFKA_METRICS_PORT),
            security=dict(settings.KAFKA_SECURITY),
            deferred_retry_s=float(settings.KAFKA_DEFERRED_RETRY_SECONDS),
            orphan_grace_s=float(settings.JOB_STALE_SECONDS),
            session_timeout_ms=int(settings.KAFKA_SESSION_TIMEOUT_MS),
            stall_s=float(settings.KAFKA_PARTITION_STALL_SECONDS),
        )
        return replace(config, **{k: v for k, v in overrides.items() if v is not None})

    def summary(self) -> str:
        """One log line with what an operator confirms against the contract's table."""
        return (
            f"brokers={self.bootstrap} group={self.group} input={self.input_topic} "
            f"stage_topics={self.stage_topics_raw} max_retries={self.max_retries} "
            f"retry_backoff={self.retry_backoff_s}s drain={self.drain_s}s "
            f"metrics_port={self.metrics_port}"
        )


def consumer_config(config: WorkerConfig) -> dict[str, Any]:
    """Offsets are committed by the worker itself, only once an outcome is in Postgres.

    cooperative-sticky: a member joining or leaving moves only the partitions it must,
    so a worker busy with a long document keeps the others.
    """
    return {
        "bootstrap.servers": config.bootstrap,
        "group.id": config.group,
        "client.id": f"aceh-rag-worker-{socket.gethostname()}-{os.getpid()}",
        "enable.auto.commit": False,
        "enable.auto.offset.store": False,
        "auto.offset.reset": "earliest",
        "partition.assignment.strategy": "cooperative-sticky",
        # librdkafka's default, stated: the lag's high watermark is read the same way.
        "isolation.level": "read_committed",
        "session.timeout.ms": config.session_timeout_ms,
        "heartbeat.interval.ms": max(1000, config.session_timeout_ms // 3),
        **config.security,
    }


def destination_topics(config: WorkerConfig) -> dict[str, str]:
    try:
        return validate_stage_topics(config.stage_topics_raw)
    except ImproperlyConfigured as exc:
        raise StartupRefused(f"peta stage-topic tidak lengkap: {exc}") from exc


def admin_config(config: WorkerConfig) -> dict[str, Any]:
    """The worker's admin clients (topic check, watermarks): its own broker connection."""
    return {
        "bootstrap.servers": config.bootstrap,
        "client.id": f"aceh-rag-worker-admin-{socket.gethostname()}-{os.getpid()}",
        **config.security,
    }


def broker_topics(config: WorkerConfig) -> set[str]:
    """Topic names the broker reports (no auto-create: metadata for all topics only)."""
    admin = AdminClient(admin_config(config))
    try:
        metadata = admin.list_topics(timeout=config.admin_timeout_s)
    except KafkaException as exc:
        raise StartupRefused(
            f"broker Kafka {config.bootstrap} tidak dapat dihubungi dalam "
            f"{config.admin_timeout_s:.0f} detik: {exc}"
        ) from exc
    return {name for name, topic in metadata.topics.items() if topic.error is None}


def check_startup(config: WorkerConfig) -> dict[str, str]:
    """The validated stage-topic map, or :class:`StartupRefused` with the reason."""
    if not config.enabled:
        raise StartupRefused(
            "KAFKA_ENABLED bernilai false: worker Kafka tidak dijalankan. "
            "Aktifkan KAFKA_ENABLED=true di environment tempat integrasi mitra berjalan."
        )
    topics = destination_topics(config)
    started = time.monotonic()
    present = broker_topics(config)
    wanted = sorted({config.input_topic, *topics.values()})
    missing = [name for name in wanted if name not in present]
    log.info(
        "kafka worker: %s of %s topics present on %s (%.2fs)",
        len(wanted) - len(missing),
        len(wanted),
        config.bootstrap,
        time.monotonic() - started,
    )
    if missing:
        raise StartupRefused(
            f"topic belum ada di broker {config.bootstrap}: {', '.join(missing)}. "
            "Buat topic tersebut lebih dulu; worker tidak mengandalkan pembuatan otomatis."
        )
    return topics
