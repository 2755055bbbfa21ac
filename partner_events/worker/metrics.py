"""Prometheus series of the Kafka worker (stage durations and the outbox backlog are shared
series in :mod:`aceh_rag.platform.metrics`, filled by the runner and the outbox)."""

from __future__ import annotations

import logging

from prometheus_client import Counter, Gauge, Histogram, start_http_server

log = logging.getLogger(__name__)

RECORDS = Counter(
    "aceh_rag_kafka_records",
    "doc.uploaded records handled by this worker, by consumer outcome",
    ["outcome"],
)
RECORD_SECONDS = Histogram(
    "aceh_rag_kafka_record_seconds",
    "Wall time of one doc.uploaded record, from hand-off to saved outcome",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900),
)
DEFERRED_RERUNS = Counter(
    "aceh_rag_kafka_deferred_reruns",
    "Deferred jobs re-run from the database, by outcome",
    ["outcome"],
)
ORPHANS_RECLAIMED = Counter(
    "aceh_rag_kafka_orphans_reclaimed",
    "Jobs left processing by a stopped worker and scheduled again",
)
CONSUMER_LAG = Gauge(
    "aceh_rag_kafka_consumer_lag",
    "High watermark minus this worker's position, per assigned partition",
    ["topic", "partition"],
)
HELD_OFFSETS = Gauge(
    "aceh_rag_kafka_held_offsets",
    "Deferred records whose offset is not committed until their job is resolved",
)
PARTITION_SINCE_PROGRESS = Gauge(
    "aceh_rag_kafka_partition_seconds_since_progress",
    "Seconds since a record of this assigned partition was last fetched or finished",
    ["topic", "partition"],
)
PARTITION_STALLS = Counter(
    "aceh_rag_kafka_partition_stalled",
    "Assigned partitions found with lag but no progress while the worker was idle "
    "(KAFKA_PARTITION_STALL_SECONDS), logged as an error and resumed",
    ["topic", "partition"],
)
COMMITS = Counter("aceh_rag_kafka_commits", "Offset commits sent, by result", ["result"])


def serve(port: int | None) -> int | None:
    """Start the /metrics endpoint; 0 picks a free port. Returns the port (None: off)."""
    if port is None:
        return None
    server, _thread = start_http_server(port)
    actual = int(server.server_port)
    log.info("kafka worker: metrics on port %s", actual)
    return actual


def clear_partition(topic: str, partition: int) -> None:
    """Drop the per-partition gauges of a partition this worker no longer owns."""
    for gauge in (CONSUMER_LAG, PARTITION_SINCE_PROGRESS):
        try:
            gauge.remove(topic, str(partition))
        except KeyError:
            pass
