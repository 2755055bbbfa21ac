"""The words a person reads about a job that is not finished: built here and nowhere else.

DESIGN: wherever a job waits, ``Dalam antrean — posisi N (±X menit)`` with real numbers;
while it runs, the stage and progress (or the GPU queue line the OCR gateway reports); at
the end, the outcome and, for failures, the upstream's own reason. The job row, the upload
results, the document and job lists and the API all take their line from these functions.
"""

from __future__ import annotations

import math

from aceh_rag.platform.gateway.jobs import JobStatus, QueueState

# What a running job is doing, by the stage of its last progress report.
STAGE_NAMES = {
    "fetched": "Berkas diambil",
    "parsed": "Ekstraksi teks",
    "ocr": "OCR",
    "chunked": "Pemotongan teks",
    "embedded": "Embedding",
    "indexed": "Pengindeksan",
}


def _minutes(ms: float) -> int:
    """Minutes a person reads: rounded up, at least 1."""
    return max(1, math.ceil(ms / 60_000))


def eta_seconds(median_job_seconds: float, position: int, workers: int) -> int:
    """When the job at ``position`` should start, from the measured time per job."""
    return math.ceil(median_job_seconds * position / max(1, workers))


def waiting_text(position: int, eta_s: int, *, deferred_text: str = "") -> str:
    """``Dalam antrean — posisi N (±X menit)``; a deferred job says why it waits instead."""
    if deferred_text:
        return deferred_text
    return f"Dalam antrean — posisi {position} (±{_minutes(eta_s * 1000)} menit)"


def processing_text(stage: str, progress: int) -> str:
    return f"Diproses — {STAGE_NAMES.get(stage, 'Memulai')} ({progress}%)"


def failed_text(error: str) -> str:
    return f"Gagal: {error}" if error else "Gagal"


def gpu_queue_text(position: int | None, eta_ms: int | None) -> str:
    """``Dalam antrean GPU — posisi N (±X menit)``; minutes rounded up, at least 1."""
    text = "Dalam antrean GPU"
    if position is not None:
        text += f" — posisi {position}"
    if eta_ms is not None:
        text += f" (±{_minutes(eta_ms)} menit)"
    return text


def gateway_queue_text(state: QueueState) -> str:
    """The line for a job whose OCR waits on the model gateway (its queue, backpressure)."""
    if state.status is JobStatus.BACKPRESSURE:
        depth = f", {state.queue_depth} dalam antrean" if state.queue_depth is not None else ""
        return f"Gateway GPU penuh — menunggu {math.ceil(state.retry_after_s or 0)} detik{depth}"
    if state.status is JobStatus.PROCESSING:
        stage = f" — {state.stage}" if state.stage else ""
        progress = f" ({round(state.progress * 100)}%)" if state.progress is not None else ""
        return f"Diproses GPU{stage}{progress}"
    if state.status in (JobStatus.QUEUED, JobStatus.RESUBMITTED):
        return gpu_queue_text(state.position, state.eta_ms)
    return str(state.status)
