"""The dashboard's SVG charts are drawn from the jobs and chunks in the database."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from ingestion.charts.dashboard import queue_charts
from ingestion.models import JobOrigin, JobState
from tests.ui.helpers import make_chunks, make_document, make_job

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_chart_cache() -> None:
    # The 30-day chart caches hours that are over; each test brings its own history.
    cache.clear()


def _finished(state: str, minutes_ago: int, *, error: str = "", origin: str = "upload") -> None:
    now = timezone.now()
    job = make_job(make_document(), state=state, error=error, origin=origin)
    job.started_at = now - timedelta(minutes=minutes_ago + 1)
    job.finished_at = now - timedelta(minutes=minutes_ago)
    job.save(update_fields=["started_at", "finished_at"])


def _svg(html: str, chart_id: str) -> str:
    match = re.search(rf'<figure class="chart" id="{chart_id}".*?</figure>', html, re.S)
    assert match, f"{chart_id} missing"
    return match.group(0)


def test_finished_documents_are_stacked_by_outcome(admin_client: Client) -> None:
    for _ in range(3):
        _finished(JobState.DONE, 5)
    _finished(JobState.NEEDS_REVIEW, 5)
    _finished(JobState.FAILED, 70, error="PDF rusak / tidak dapat dibaca")
    _finished(JobState.DONE, 60 * 24 * 3)  # outside the 24 h chart, inside the 30 days

    html = admin_client.get("/").content.decode()
    hourly = _svg(html, "chart-hourly")
    assert 'role="img"' in hourly and "Dokumen selesai per jam, 24 jam terakhir" in hourly
    assert hourly.count('class="seg-done"') == 1
    assert re.search(r"Terindeks 3</title>", hourly)
    assert re.search(r"Perlu ditinjau 1</title>", hourly)
    assert re.search(r"Gagal 1</title>", hourly)
    daily = _svg(html, "chart-daily")
    assert daily.count('class="seg-done"') == 2  # today's three and the one three days ago


def test_failure_reasons_link_to_the_filtered_job_list(admin_client: Client) -> None:
    reason = "PDF terenkripsi / dilindungi kata sandi"
    for _ in range(2):
        _finished(JobState.FAILED, 30, error=reason)
    _finished(JobState.FAILED, 30, error="Berkas DOCX rusak", origin=JobOrigin.KAFKA)
    _finished(JobState.FAILED, 60 * 24 * 8, error="terlalu lama")  # older than 7 days

    html = admin_client.get("/").content.decode()
    reasons = re.search(r'data-testid="failure-reasons">(.*?)</ol>', html, re.S)
    assert reasons is not None
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', reasons.group(1))
    assert [unescape(text) for _, text in links] == [reason, "Berkas DOCX rusak"]
    query = parse_qs(urlsplit(unescape(links[0][0])).query)
    assert query == {"state": ["failed"], "origin": ["all"], "reason": [reason]}

    listed = admin_client.get(unescape(links[0][0])).content.decode()
    assert listed.count('class="badge badge-job-failed"') == 2
    assert "Berkas DOCX rusak" not in listed


def test_reviewers_see_failure_reasons_without_links(reviewer_client: Client) -> None:
    _finished(JobState.FAILED, 30, error="Berkas XLSX rusak")
    html = reviewer_client.get("/").content.decode()
    reasons = re.search(r'data-testid="failure-reasons">(.*?)</ol>', html, re.S)
    assert reasons is not None and "Berkas XLSX rusak" in reasons.group(1)
    assert "<a " not in reasons.group(1)


def test_the_ocr_histogram_marks_the_review_threshold(admin_client: Client, settings: Any) -> None:
    settings.OCR_REVIEW_THRESHOLD = 0.6
    document = make_document()
    make_chunks(document, 4, parked=True)  # confidence 0.42
    make_chunks(make_document(), 6)  # confidence 0.97
    html = admin_client.get("/").content.decode()
    chart = _svg(html, "chart-ocr")
    assert "Ambang tinjauan 0,60" in chart
    assert "0,40–0,45: 4</title>" in chart
    assert "0,95–1,00: 6</title>" in chart


def test_queue_depth_counts_jobs_waiting_at_each_sample() -> None:
    now = timezone.now()
    waiting = make_job(state=JobState.QUEUED)
    waiting.created_at = now - timedelta(hours=2)
    waiting.save(update_fields=["created_at"])
    started = make_job(make_document(), origin=JobOrigin.KAFKA, state=JobState.DONE)
    started.created_at = now - timedelta(hours=5)
    started.started_at = now - timedelta(hours=3)
    started.finished_at = now - timedelta(hours=3) + timedelta(seconds=30)
    started.save(update_fields=["created_at", "started_at", "finished_at"])

    depth, wait = queue_charts(now)
    rows = {row[0]: tuple(row[1:]) for row in depth.table_rows}
    assert list(rows.values())[-1] == ("1", "0")  # now: the upload waits, Kafka is done
    kafka_waits = [row[2] for row in wait.table_rows if row[2] != "—"]
    assert kafka_waits == ["120 mnt"]
    # Four hours ago the Kafka job waited and the upload did not exist yet.
    four_hours_ago = timezone.localtime(now - timedelta(hours=4))
    label = f"{four_hours_ago:%H}.{'30' if four_hours_ago.minute >= 30 else '00'}"
    assert rows[label] == ("0", "1")
