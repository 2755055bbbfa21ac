"""The waiting, GPU-queue and processing lines a person reads, with real numbers."""

from __future__ import annotations

import pytest

from aceh_rag.platform.gateway.jobs import JobStatus, QueueState
from ingestion.queue_text import gateway_queue_text, gpu_queue_text, processing_text, waiting_text


@pytest.mark.parametrize(
    ("position", "eta_ms", "expected"),
    [
        (3, 40_000, "Dalam antrean GPU — posisi 3 (±1 menit)"),
        (1, 0, "Dalam antrean GPU — posisi 1 (±1 menit)"),
        (12, 60_000, "Dalam antrean GPU — posisi 12 (±1 menit)"),
        (12, 60_001, "Dalam antrean GPU — posisi 12 (±2 menit)"),
        (5, 7 * 60_000 + 1, "Dalam antrean GPU — posisi 5 (±8 menit)"),
    ],
)
def test_queue_text_rounds_minutes_up_and_never_shows_zero(
    position: int, eta_ms: int, expected: str
) -> None:
    assert gpu_queue_text(position, eta_ms) == expected


def test_queue_text_shows_what_is_known_when_eta_or_position_is_missing() -> None:
    assert gpu_queue_text(4, None) == "Dalam antrean GPU — posisi 4"
    assert gpu_queue_text(None, 120_000) == "Dalam antrean GPU (±2 menit)"


def test_each_state_reads_as_a_sentence_for_the_job_row() -> None:
    queued = QueueState(JobStatus.QUEUED, position=2, eta_ms=90_000)
    processing = QueueState(JobStatus.PROCESSING, stage="recognize", progress=0.25)
    waiting = QueueState(JobStatus.BACKPRESSURE, queue_depth=17, retry_after_s=1.2)

    assert gateway_queue_text(queued) == "Dalam antrean GPU — posisi 2 (±2 menit)"
    assert gateway_queue_text(processing) == "Diproses GPU — recognize (25%)"
    assert gateway_queue_text(waiting) == "Gateway GPU penuh — menunggu 2 detik, 17 dalam antrean"


def test_a_waiting_job_reads_its_position_and_minutes_and_a_deferred_one_why() -> None:
    assert waiting_text(3, 61) == "Dalam antrean — posisi 3 (±2 menit)"
    assert waiting_text(1, 0) == "Dalam antrean — posisi 1 (±1 menit)"
    assert waiting_text(2, 60, deferred_text="Ditunda — dokumen yang sama sedang diproses") == (
        "Ditunda — dokumen yang sama sedang diproses"
    )


def test_a_running_job_reads_its_stage_and_progress() -> None:
    assert processing_text("parsed", 25) == "Diproses — Ekstraksi teks (25%)"
    assert processing_text("", 0) == "Diproses — Memulai (0%)"
