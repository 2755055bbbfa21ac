"""Time an OCR page spent in the gateway's GPU queue ends up on the job, apart from OCR."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aceh_rag.platform.gateway.jobs import JobStatus, QueueState
from ingestion.jobs import JobProgressObserver
from ingestion.models import IngestionJob, JobOrigin
from ingestion.pipeline.base import OcrLine, OcrPage
from ingestion.pipeline.ocr import factory
from ingestion.pipeline.ocr.step import run_ocr
from ingestion.pipeline.parse import render_page_png
from ingestion.pipeline.request import CompositeObserver
from ingestion.pipeline.retry import RetryPolicy
from tests.pipeline_core.helpers import image_only_pdf

pytestmark = pytest.mark.django_db


class QueueingEngine:
    """Reports a GPU queue like the gateway client does, then returns one line per page."""

    name = "gateway"

    def recognize(self, page: Any, *, on_queue: Any = None) -> OcrPage:
        for waited in (0, 4_000, 9_000):
            on_queue(QueueState(JobStatus.QUEUED, job_id=f"j{page.page}", waited_ms=waited))
        on_queue(QueueState(JobStatus.PROCESSING, job_id=f"j{page.page}", waited_ms=9_000))
        return OcrPage(page=page.page, lines=[OcrLine(text="Pasal 1", confidence=0.9)])


def test_each_pages_gpu_wait_is_summed_onto_the_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(factory, "get_ocr_engine", lambda: QueueingEngine())
    pdf = tmp_path / "pindaian.pdf"
    pdf.write_bytes(image_only_pdf(pages=2))
    job = IngestionJob.objects.create(origin=JobOrigin.KAFKA)

    run_ocr(
        pdf,
        [1, 2],
        render=render_page_png,
        observer=CompositeObserver(JobProgressObserver(job)),
        policy=RetryPolicy(retries=0),
        dpi=72,
        max_pixels=None,
    )

    job.refresh_from_db()
    assert job.gpu_queue_ms == 18_000
