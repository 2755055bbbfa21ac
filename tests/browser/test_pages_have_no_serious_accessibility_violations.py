"""axe-core on the main pages: no serious or critical violations; every chart is named."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from ingestion.management.commands.ensure_admin import ADMIN_GROUP
from ingestion.models import Chunk, JobMilestone, JobOrigin, JobState
from partner_events.models import StageEvent
from partner_events.status import format_ts
from tests.browser.helpers import log_in, parked_document, screenshot
from tests.ui.helpers import PASSWORD, make_chunks, make_document, make_job, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
BLOCKING = {"serious", "critical"}


def _axe_source() -> str:
    data = AXE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == AXE_SHA256, "vendored axe-core changed"
    return data.decode("utf-8")


def _violations(page: Any, source: str) -> list[dict[str, Any]]:
    # Evaluated through the DevTools protocol: not a page script, so the strict CSP (which
    # the page fixture also watches) neither blocks it nor is loosened for it.
    page.evaluate(source)
    result = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations']})"
        ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})))"
    )
    return [v for v in result if v["impact"] in BLOCKING]


def _chart_names(page: Any) -> list[tuple[str, str]]:
    return [
        (item["id"], item["name"])
        for item in page.evaluate(
            "() => [...document.querySelectorAll('svg[role=img]')].map(svg => ({"
            " id: svg.closest('[id]') ? svg.closest('[id]').id : '?',"
            " name: (svg.getAttribute('aria-labelledby') || '').split(' ')"
            "   .map(id => (document.getElementById(id) || {}).textContent || '').join(' ').trim()"
            "}))"
        )
    ]


def _data(object_store: Path) -> tuple[Any, Any, Any]:
    now = timezone.now()
    for hours, state in [(1, JobState.DONE), (2, JobState.FAILED), (5, JobState.NEEDS_REVIEW)]:
        job = make_job(
            make_document(),
            state=state,
            origin=JobOrigin.KAFKA,
            error="PDF rusak / tidak dapat dibaca",
        )
        job.started_at = now - timedelta(hours=hours, minutes=1)
        job.finished_at = now - timedelta(hours=hours)
        job.save(update_fields=["started_at", "finished_at"])
    indexed = make_document(title="Qanun Aceh tentang kearsipan daerah")
    make_chunks(indexed, 3)
    job = make_job(indexed, origin=JobOrigin.KAFKA)
    for seq, key in enumerate(["fetched", "parsed", "chunked", "embedded", "indexed"], start=1):
        at = now - timedelta(seconds=10 - 2 * seq)
        JobMilestone.objects.create(job=job, seq=seq, milestone=key, created_at=at)
        StageEvent.objects.create(job=job, seq=seq, routing_key=key, payload={"ts": format_ts(at)})
    parked = parked_document(object_store, [0.41, 0.55])
    region = {
        "page": 1, "w": 595.0, "h": 842.0, "unit": "pt", "dpi": 72,
        "boxes": [[72.0, 78.0, 400.0, 94.0]],
        "lines": [{"box": [72.0, 78.0, 400.0, 94.0], "c": 0.41, "o": 0, "n": 30}],
    }  # fmt: skip
    Chunk.objects.filter(document=parked).update(regions=[region], page_from=1, page_to=1)
    return indexed, parked, job


def test_the_main_pages_have_no_serious_or_critical_violations(
    page: Any, live_server: Any, object_store: Path
) -> None:
    make_user("admin", group=ADMIN_GROUP)
    indexed, parked, job = _data(object_store)
    source = _axe_source()
    log_in(page, live_server.url, "admin", PASSWORD)
    chunk = Chunk.objects.filter(document=parked).order_by("ordinal").first()
    assert chunk is not None
    pages = {
        "dasbor": "/",
        "dokumen": "/documents/",
        "detail-dokumen": f"/documents/{parked.pk}/?chunk={chunk.pk}",
        "detail-dokumen-tanpa-halaman": f"/documents/{indexed.pk}/",
        "tinjauan": f"/review/{parked.pk}/",
        "pencarian": "/search/?q=arsip+daerah",
        "pekerjaan": f"/jobs/{job.partner_job_id or job.pk}/",
    }
    found: dict[str, list[dict[str, Any]]] = {}
    names: list[tuple[str, str]] = []
    for name, url in pages.items():
        page.goto(f"{live_server.url}{url}")
        page.wait_for_load_state("networkidle")
        found[name] = _violations(page, source)
        names += _chart_names(page)
        screenshot(page, f"axe-{name}")
    assert {k: v for k, v in found.items() if v} == {}, json.dumps(found, indent=1)
    chart_ids = {chart_id for chart_id, _ in names}
    assert {"chart-hourly", "chart-daily", "chart-ocr", "chart-timeline"} <= chart_ids
    assert all(name for _, name in names), names
