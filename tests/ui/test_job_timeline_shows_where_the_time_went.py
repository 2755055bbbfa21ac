"""The job page draws its stage timeline from the times of the job's milestones."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from ingestion.charts.timeline import segments
from ingestion.models import IngestionJob, JobMilestone, JobOrigin
from tests.ui.helpers import make_document, make_job

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
STEPS = [("fetched", 2), ("ocr_pending", 3), ("parsed", 3), ("ocr", 63), ("chunked", 64),
         ("embedded", 70), ("indexed", 71)]  # fmt: skip


def _job_with_events(gpu_queue_ms: int | None) -> IngestionJob:
    job = make_job(make_document(), origin=JobOrigin.KAFKA, gpu_queue_ms=gpu_queue_ms)
    job.created_at = T0 - timedelta(seconds=30)
    job.started_at = T0
    job.save(update_fields=["created_at", "started_at"])
    for seq, (key, second) in enumerate(STEPS, start=1):
        JobMilestone.objects.create(
            job=job, seq=seq, milestone=key, created_at=T0 + timedelta(seconds=second)
        )
    return job


def test_stages_follow_the_event_times_with_the_gpu_wait_apart() -> None:
    job = _job_with_events(gpu_queue_ms=45_000)
    spans = segments(job, JobMilestone.objects.filter(job=job))
    assert [(s.label, s.seconds) for s in spans] == [
        ("Antrean", 30.0),
        ("Ambil berkas", 2.0),
        ("Baca isi", 1.0),
        ("OCR — antrean GPU", 45.0),
        ("OCR — pemrosesan", 15.0),
        ("Potong teks", 1.0),
        ("Buat vektor", 6.0),
        ("Indeks", 1.0),
    ]


def test_the_job_page_draws_one_bar_per_stage(admin_client: Client) -> None:
    job = _job_with_events(gpu_queue_ms=None)
    html = admin_client.get(f"/jobs/{job.partner_job_id or job.pk}/").content.decode()
    figure = re.search(r'<figure class="chart" id="chart-timeline".*?</figure>', html, re.S)
    assert figure is not None
    svg = figure.group(0)
    assert 'role="img"' in svg and "Linimasa tahap pekerjaan" in svg
    assert re.findall(r'<rect class="(tl-[a-z-]+)"', svg) == [
        "tl-other", "tl-fetch", "tl-parse", "tl-ocr", "tl-chunk", "tl-embed", "tl-index",
    ]  # fmt: skip
    assert "OCR — pemrosesan: 1 mnt 0 dtk" in svg
    assert "antrean GPU" not in svg  # no gateway: no GPU wait to show
