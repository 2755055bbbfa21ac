"""Prometheus metrics shared by the web app and the workers.

In-process series (counters, histograms) live in the default registry. Series read from
the apps' tables at scrape time are the apps' own collectors (``ingestion.metrics``).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

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
API_RATE_LIMITED = Counter(
    "aceh_rag_api_rate_limited",
    "API and MCP calls refused with 429 because the token was over its budget",
    ["token", "budget"],
)
