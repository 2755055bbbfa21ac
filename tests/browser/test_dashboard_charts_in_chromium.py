"""The dashboard's charts in Chromium: drawn from real rows, refreshed by the htmx poll."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from ingestion.management.commands.ensure_admin import ADMIN_GROUP
from ingestion.models import JobOrigin, JobState
from tests.browser.helpers import log_in, screenshot
from tests.ui.helpers import PASSWORD, make_chunks, make_document, make_job, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fresh_chart_cache() -> None:
    # The 30-day chart caches hours that are over; each test brings its own history.
    cache.clear()


def _finished(state: str, hours_ago: float, origin: str, error: str = "") -> None:
    now = timezone.now()
    job = make_job(make_document(), state=state, origin=origin, error=error)
    job.created_at = now - timedelta(hours=hours_ago, minutes=12)
    job.started_at = now - timedelta(hours=hours_ago, minutes=2)
    job.finished_at = now - timedelta(hours=hours_ago)
    job.save(update_fields=["created_at", "started_at", "finished_at"])


def _history() -> None:
    outcomes = [JobState.DONE] * 6 + [JobState.NEEDS_REVIEW, JobState.FAILED, JobState.SKIPPED]
    for hour in range(0, 24, 2):
        for index, state in enumerate(outcomes[: 3 + hour % 7]):
            origin = JobOrigin.KAFKA if index % 2 else JobOrigin.UPLOAD
            error = "PDF rusak / tidak dapat dibaca" if state == JobState.FAILED else ""
            _finished(state, hour + 0.25, origin, error)
    for day in range(2, 30, 3):
        _finished(JobState.DONE, day * 24, JobOrigin.KAFKA)
    waiting = make_job(state=JobState.QUEUED)
    waiting.created_at = timezone.now() - timedelta(hours=3)
    waiting.save(update_fields=["created_at"])
    make_chunks(make_document(), 12, parked=True)
    make_chunks(make_document(), 30)


def test_the_dashboard_draws_every_chart_and_refreshes_it(page: Any, live_server: Any) -> None:
    make_user("admin", group=ADMIN_GROUP)
    _history()
    log_in(page, live_server.url, "admin", PASSWORD)
    for chart_id in ("chart-hourly", "chart-daily", "chart-queue-depth", "chart-queue-wait"):
        svg = page.locator(f"#{chart_id} svg")
        assert svg.get_attribute("role") == "img"
        name = page.evaluate("id => document.getElementById(id + '-title').textContent", chart_id)
        assert name, chart_id
    assert page.locator("#chart-hourly rect.seg-done").count() >= 10
    assert page.locator("#chart-daily rect.seg-done").count() >= 10
    assert page.locator("#chart-queue-depth polyline.ln-upload").count() >= 1
    assert page.locator("#chart-ocr rect.bar-ocr").count() == 2
    assert "Ambang tinjauan 0,60" in page.locator("#chart-ocr").inner_text()
    reasons = page.locator("[data-testid=failure-reasons] li")
    assert reasons.count() == 1 and "PDF rusak" in reasons.first.inner_text()
    page.locator("#dashboard-stats").scroll_into_view_if_needed()
    screenshot(page, "dashboard-charts")

    # A new failure reason appears with the next poll (every 10 s), without a reload.
    _finished(JobState.FAILED, 0.1, JobOrigin.UPLOAD, "Berkas DOCX rusak")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=failure-reasons] li').length === 2",
        timeout=25_000,
    )
    page.locator("[data-testid=failure-reasons] a", has_text="Berkas DOCX rusak").click()
    page.wait_for_url("**/jobs/?*reason=*")
    assert "Berkas DOCX rusak" in page.locator("[data-testid=reason-filter]").inner_text()
    assert page.locator("table.table tbody tr").count() == 1
