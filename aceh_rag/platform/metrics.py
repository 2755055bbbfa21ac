"""Prometheus metrics shared by the web app and the workers.

In-process series (counters, histograms) live in the default registry. Queue depth and
job totals are read from Postgres at scrape time by :class:`JobTableCollector`, so the web
process reports the truth even though the workers run in other processes.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

JOBS_PROCESSED = Counter(
    "aceh_rag_jobs_processed",
    "Ingestion jobs finished by this process, by outcome",
    ["origin", "outcome"],
)
STAGE_DURATION = Histogram(
    "aceh_rag_stage_duration_seconds",
    "Wall time of one pipeline stage",
    ["stage"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900),
)
GATEWAY_REQUESTS = Counter(
    "aceh_rag_gateway_requests",
    "Calls to the AHU model gateway, by operation and HTTP status class",
    ["operation", "status"],
)
AUDIT_EVENTS_DROPPED = Counter(
    "aceh_rag_audit_events_dropped",
    "Audit events lost: the spool was at AUDIT_SPOOL_MAX_BYTES, or one could not be encoded",
    ["reason"],
)
AUDIT_BODIES_DROPPED = Counter(
    "aceh_rag_audit_bodies_dropped",
    "Audit events spooled without their bodies because the spool was near its cap",
)
AUDIT_SPOOL_BYTES = Gauge(
    "aceh_rag_audit_spool_bytes",
    "Bytes of audit events waiting on local disk for the Redis stream (this process's view)",
)
OUTBOX_BACKLOG = Gauge(
    "aceh_rag_outbox_backlog",
    "Stage events written to the outbox but not yet published (worker view)",
)


class JobTableCollector(Collector):
    """Queue depth and job counts by state, straight from the jobs table."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from django.db import DatabaseError
        from django.db.models import Count

        from ingestion.models import IngestionJob, JobState

        by_state = GaugeMetricFamily(
            "aceh_rag_jobs", "Ingestion jobs in the database by state", labels=["state"]
        )
        depth = GaugeMetricFamily("aceh_rag_queue_depth", "Jobs waiting to be processed")
        try:
            counts = dict(
                IngestionJob.objects.values_list("state").annotate(n=Count("id")).order_by()
            )
        except DatabaseError:
            log.warning("metrics: jobs table unavailable", exc_info=True)
            return
        for state in JobState.values:
            by_state.add_metric([state], float(counts.get(state, 0)))
        depth.add_metric(
            [], float(counts.get(JobState.QUEUED, 0) + counts.get(JobState.DEFERRED, 0))
        )
        yield by_state
        yield depth


_registered = False


def register_db_collector() -> None:
    global _registered
    if not _registered:
        REGISTRY.register(JobTableCollector())
        _registered = True
