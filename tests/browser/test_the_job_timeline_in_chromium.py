"""A real upload's job page draws where its time went, one bar per stage, in order."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from ingestion.management.commands.ensure_admin import ADMIN_GROUP
from ingestion.models import IngestionJob
from tests.browser.helpers import WAIT_MS, Worker, log_in, screenshot
from tests.ui.helpers import PASSWORD, make_user, text_pdf

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STAGES = ["Antrean", "Ambil berkas", "Baca isi", "Potong teks", "Buat vektor", "Indeks"]


def test_the_job_page_shows_its_stage_timeline(
    page: Any, live_server: Any, worker: Worker, tmp_path: Path
) -> None:
    make_user("admin", group=ADMIN_GROUP)
    log_in(page, live_server.url, "admin", PASSWORD)
    pdf = tmp_path / "qanun-linimasa.pdf"
    pdf.write_bytes(text_pdf("Qanun Aceh tentang arsip daerah. Pasal 1: Arsip dikelola.", pages=2))
    page.goto(f"{live_server.url}/upload/")
    page.set_input_files("#id_files", [str(pdf)])
    page.click("#upload-submit")
    page.wait_for_selector('#upload-results .job-live[data-state="done"]', timeout=WAIT_MS)
    job = IngestionJob.objects.get()

    page.goto(f"{live_server.url}/jobs/{job.pk}/")
    chart = page.locator("#chart-timeline")
    svg = chart.locator("svg[role=img]")
    assert "Linimasa tahap pekerjaan" in (svg.locator("title").first.text_content() or "")
    labels = [t.split(" · ")[0] for t in chart.locator("text.tl-label").all_text_contents()]
    assert labels == STAGES, worker.log()
    bars = chart.locator("svg .data rect")
    assert bars.count() == len(STAGES)
    # Bars follow one another in time: each starts where the previous one ended.
    boxes = [bars.nth(i).bounding_box() for i in range(bars.count())]
    for before, after in pairwise(boxes):
        assert after["x"] >= before["x"] + before["width"] - 2.5
    assert "Buat vektor" in (chart.locator("desc").first.text_content() or "")
    chart.scroll_into_view_if_needed()
    screenshot(page, "job-timeline")
