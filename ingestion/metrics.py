"""Series read from the jobs table at scrape time: the web process reports the truth even
though the workers run in other processes. Registered by the ``/metrics`` view."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.db import DatabaseError
from django.db.models import Count
from prometheus_client import REGISTRY
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from ingestion.models import IngestionJob, JobState

log = logging.getLogger(__name__)


class JobTableCollector(Collector):
    """Queue depth and job counts by state, straight from the jobs table."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        by_state = GaugeMetricFamily(
            "aceh_rag_jobs", "Ingestion jobs in the database by state", labels=["state"]
        )
        depth = GaugeMetricFamily("aceh_rag_queue_depth", "Jobs waiting to be processed")
        try:
            counts = dict(
                IngestionJob.objects.values_list("state").annotate(n=Count("id")).order_by()
            )
        except (DatabaseError, RuntimeError):
            # A scrape must never fail because the jobs table cannot be read right now (no
            # database, or no database access in this context): those series are left out.
            log.warning("metrics: jobs table unavailable", exc_info=True)
            return
        for state in JobState.values:
            by_state.add_metric([state], float(counts.get(state, 0)))
        depth.add_metric(
            [], float(counts.get(JobState.QUEUED, 0) + counts.get(JobState.DEFERRED, 0))
        )
        yield by_state
        yield depth


class LastExportCollector(Collector):
    """When the last successful ``export_corpus`` finished (absent before the first)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from ingestion.export.history import last_export_timestamp

        try:
            at = last_export_timestamp()
        except (DatabaseError, RuntimeError):
            log.warning("metrics: export history unavailable", exc_info=True)
            return
        if at is None:
            return
        gauge = GaugeMetricFamily(
            "aceh_rag_last_export_timestamp_seconds",
            "Unix time the last successful corpus export finished",
        )
        gauge.add_metric([], at)
        yield gauge


_registered = False


def register_db_collector() -> None:
    global _registered
    if not _registered:
        REGISTRY.register(JobTableCollector())
        REGISTRY.register(LastExportCollector())
        _registered = True
