"""The dashboard's charts: four aggregate queries, each bounded by an index.

- finished jobs per hour over 30 days (one query feeds both the 24-hour and the 30-day
  chart; ``job_finished_at`` index),
- queue depth and median wait over 24 hours, derived from job timestamps (no sampler
  process; see ``docs/decisions.md``),
- the top failure reasons over 7 days,
- the OCR confidence of the last 500 OCR'd chunks (``chunk_ocr_recent`` partial index).
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from ingestion.charts.svg import Chart, Series, fmt_decimal, histogram, line_series, stacked_bars
from ingestion.models import Chunk, IngestionJob, JobOrigin, JobState

log = logging.getLogger(__name__)

OUTCOMES = (
    Series(JobState.DONE, str(JobState.DONE.label), "seg-done"),
    Series(JobState.NEEDS_REVIEW, str(JobState.NEEDS_REVIEW.label), "seg-review"),
    Series(JobState.FAILED, str(JobState.FAILED.label), "seg-failed"),
    Series(JobState.SKIPPED, str(JobState.SKIPPED.label), "seg-skipped"),
)
QUEUES = (
    Series(JobOrigin.UPLOAD, "Antrean unggahan", "ln-upload"),
    Series(JobOrigin.KAFKA, "Pekerjaan Kafka", "ln-kafka"),
)
HOURS = 24
DAYS = 30
REASON_DAYS = 7
TOP_REASONS = 6
REASON_CHARS = 160
OCR_SAMPLE = 500
OCR_BINS = 20
QUEUE_STEP_MINUTES = 30
EARLIER_HOURS_CACHE_SECONDS = 3600  # the key changes every hour anyway


@dataclass(frozen=True, slots=True)
class Reason:
    text: str
    count: int
    share: float  # of the largest reason, for the bar length (0..1)
    url: str | None


def _hour(moment: datetime) -> datetime:
    return moment.replace(minute=0, second=0, microsecond=0)


def _fetch(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def _finished_by_hour(
    since: datetime, until: datetime | None = None
) -> dict[datetime, dict[str, int]]:
    table = IngestionJob._meta.db_table
    rows = _fetch(
        f"""
        SELECT date_trunc('hour', finished_at), state, count(*)
          FROM {table}
         WHERE finished_at >= %s AND finished_at < %s
           AND state IN ('done', 'needs_review', 'failed', 'skipped')
         GROUP BY 1, 2
        """,
        [since, until or datetime.max.replace(tzinfo=since.tzinfo)],
    )
    by_hour: dict[datetime, dict[str, int]] = defaultdict(dict)
    for hour, state, count in rows:
        by_hour[hour][state] = int(count)
    return by_hour


def _earlier_hours(first_day: datetime, split: datetime) -> dict[datetime, dict[str, int]]:
    """Finished jobs per hour before ``split`` (the last 24 h): cached until the hour turns.

    Scanning 30 days of jobs on every 10-second poll was most of the dashboard's time; hours
    that are over change only when a parked document is reviewed, which the 30-day chart may
    show up to an hour late (the 24-hour chart is always current).
    """
    key = f"dashboard:finished:{first_day.isoformat()}:{split.isoformat()}"
    cached = cache.get(key)
    if cached is None:
        cached = dict(_finished_by_hour(first_day, split))
        cache.set(key, cached, timeout=EARLIER_HOURS_CACHE_SECONDS)
    return cached


def finished_charts(now: datetime) -> tuple[Chart, Chart]:
    """Documents finished per hour (24 h) and per local day (30 days), by outcome."""
    local_now = timezone.localtime(now)
    first_day = (local_now - timedelta(days=DAYS - 1)).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    hours = [_hour(local_now) - timedelta(hours=HOURS - 1 - i) for i in range(HOURS)]
    by_hour = {**_earlier_hours(first_day, hours[0]), **_finished_by_hour(hours[0])}
    hourly = [(f"{h:%H}.00", by_hour.get(h, {})) for h in hours]  # hours are local already
    days: dict[str, dict[str, int]] = {}
    for i in range(DAYS):
        day = first_day + timedelta(days=i)
        days[f"{day:%d/%m}"] = {}
    zone = timezone.get_current_timezone()
    for hour, values in by_hour.items():
        key = f"{hour.astimezone(zone):%d/%m}"
        if key in days:
            for state, count in values.items():
                days[key][state] = days[key].get(state, 0) + count
    per_hour = stacked_bars(
        Chart(
            "chart-hourly",
            "Dokumen selesai per jam, 24 jam terakhir",
            "Batang bertumpuk per jam menurut hasil: terindeks, perlu ditinjau, gagal, dilewati.",
        ),
        hourly,
        OUTCOMES,
        label_every=3,
    )
    per_day = stacked_bars(
        Chart(
            "chart-daily",
            "Dokumen selesai per hari, 30 hari terakhir",
            "Batang bertumpuk per hari menurut hasil: terindeks, perlu ditinjau, gagal, dilewati.",
        ),
        list(days.items()),
        OUTCOMES,
        label_every=5,
    )
    return per_hour, per_day


def _queue_rows(start: datetime, end: datetime) -> list[tuple[Any, ...]]:
    """Depth samples and hourly median waits, per origin, from job timestamps.

    Depth at t = jobs created by t that had not started (or ended) by t, computed as a
    running sum over +1 (created) / -1 (left the queue) events with the sample times
    interleaved. Only jobs still waiting or that left inside the window take part.
    """
    table = IngestionJob._meta.db_table
    return _fetch(
        f"""
        WITH jobs AS (
            SELECT origin, created_at, coalesce(started_at, finished_at) AS left_at
              FROM {table}
             WHERE coalesce(started_at, finished_at) >= %(start)s
                OR (started_at IS NULL AND finished_at IS NULL)
        ), events AS (
            SELECT origin, created_at AS t, 1 AS d, false AS sample FROM jobs
            UNION ALL
            SELECT origin, left_at, -1, false FROM jobs WHERE left_at IS NOT NULL
            UNION ALL
            SELECT o.origin, g.t, 0, true
              FROM generate_series(%(start)s::timestamptz, %(end)s::timestamptz,
                                   make_interval(mins => %(step)s)) AS g(t)
             CROSS JOIN (VALUES ('upload'), ('kafka')) AS o(origin)
        ), running AS (
            SELECT origin, t, sample,
                   sum(d) OVER (PARTITION BY origin ORDER BY t, sample) AS depth
              FROM events
        )
        SELECT 'depth', t, origin, depth::float FROM running WHERE sample
        UNION ALL
        SELECT 'wait', date_trunc('hour', started_at), origin,
               percentile_cont(0.5) WITHIN GROUP (
                   ORDER BY extract(epoch FROM started_at - created_at))
          FROM {table}
         WHERE started_at >= %(start)s
         GROUP BY 2, 3
        """,
        {"start": start, "end": end, "step": QUEUE_STEP_MINUTES},  # type: ignore[arg-type]
    )


def queue_charts(now: datetime) -> tuple[Chart, Chart]:
    """Waiting jobs every 30 minutes and the median wait per hour, upload vs Kafka."""
    end = now.replace(second=0, microsecond=0)
    end -= timedelta(minutes=end.minute % QUEUE_STEP_MINUTES)
    steps = HOURS * 60 // QUEUE_STEP_MINUTES
    start = end - timedelta(minutes=QUEUE_STEP_MINUTES * steps)
    samples = [start + timedelta(minutes=QUEUE_STEP_MINUTES * i) for i in range(steps + 1)]
    hours = [_hour(now) - timedelta(hours=HOURS - 1 - i) for i in range(HOURS)]
    depth: dict[str, list[float | None]] = {s.key: [0.0] * len(samples) for s in QUEUES}
    wait: dict[str, list[float | None]] = {s.key: [None] * len(hours) for s in QUEUES}
    zone = timezone.get_current_timezone()
    sample_index = {t: i for i, t in enumerate(samples)}
    hour_index = {h: i for i, h in enumerate(hours)}
    for kind, moment, origin, value in _queue_rows(start, end):
        if origin not in depth:
            continue
        if kind == "depth" and moment in sample_index:
            depth[origin][sample_index[moment]] = float(value)
        elif kind == "wait" and moment in hour_index:
            wait[origin][hour_index[moment]] = float(value) / 60
    depth_chart = line_series(
        Chart(
            "chart-queue-depth",
            "Kedalaman antrean, 24 jam terakhir",
            "Jumlah pekerjaan yang menunggu setiap 30 menit, antrean unggahan dan pekerjaan Kafka.",
        ),
        [f"{t.astimezone(zone):%H.%M}" for t in samples],
        depth,
        QUEUES,
        label_every=6,
    )
    wait_chart = line_series(
        Chart(
            "chart-queue-wait",
            "Median waktu tunggu per jam, 24 jam terakhir",
            "Median menit antara pekerjaan masuk antrean dan mulai diproses, per jam.",
        ),
        [f"{h.astimezone(zone):%H}.00" for h in hours],
        wait,
        QUEUES,
        unit=" mnt",
        label_every=3,
        dots=True,
    )
    return depth_chart, wait_chart


def failure_reasons(now: datetime, *, linked: bool) -> list[Reason]:
    """The most frequent failure reasons of the last 7 days, linked to the job list."""
    table = IngestionJob._meta.db_table
    rows = _fetch(
        f"""
        SELECT error, count(*) FROM {table}
         WHERE state = 'failed' AND finished_at >= %s
         GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT %s
        """,
        [now - timedelta(days=REASON_DAYS), TOP_REASONS],
    )
    largest = max((int(n) for _, n in rows), default=1)
    base = reverse("job_list")
    return [
        Reason(
            text=(error or "(tanpa alasan)")[:REASON_CHARS],
            count=int(count),
            share=int(count) / largest,
            url=f"{base}?{urlencode({'state': 'failed', 'origin': 'all', 'reason': error})}"
            if linked
            else None,
        )
        for error, count in rows
    ]


def ocr_histogram() -> Chart:
    """Calibrated OCR confidence of the newest OCR'd chunks with the review threshold."""
    table = Chunk._meta.db_table
    rows = _fetch(
        f"""
        SELECT least(floor(c * %s), %s - 1)::int, count(*)
          FROM (SELECT ocr_confidence AS c FROM {table}
                 WHERE ocr_confidence IS NOT NULL ORDER BY id DESC LIMIT %s) AS recent
         GROUP BY 1
        """,
        [OCR_BINS, OCR_BINS, OCR_SAMPLE],
    )
    counts = [0] * OCR_BINS
    for index, count in rows:
        counts[max(0, min(int(index), OCR_BINS - 1))] += int(count)
    threshold = float(settings.OCR_REVIEW_THRESHOLD)
    return histogram(
        Chart(
            "chart-ocr",
            f"Sebaran keyakinan OCR, {OCR_SAMPLE} potongan OCR terakhir",
            f"Jumlah potongan per rentang keyakinan; potongan di bawah ambang "
            f"{fmt_decimal(threshold)} ditahan untuk ditinjau.",
        ),
        counts,
        low=0.0,
        high=1.0,
        css="bar-ocr",
        marker_at=threshold,
        marker_label=f"Ambang tinjauan {fmt_decimal(threshold)}",
    )


def dashboard_charts(*, can_admin: bool) -> dict[str, Any]:
    started = time.perf_counter()
    now = timezone.now()
    hourly, daily = finished_charts(now)
    depth, wait = queue_charts(now)
    charts = {
        "hourly": hourly,
        "daily": daily,
        "queue_depth": depth,
        "queue_wait": wait,
        "reasons": failure_reasons(now, linked=can_admin),
        "ocr": ocr_histogram(),
        "reason_days": REASON_DAYS,
    }
    log.debug("dashboard charts in %.1f ms", (time.perf_counter() - started) * 1000)
    return charts
