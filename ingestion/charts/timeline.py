"""A job's stage timeline: where its time went, from the job's milestones (``JobMilestone``).

Held milestones (parsed, ocr, chunked, embedded) are reported only once the document is
written, but each keeps the moment its stage really ended, so consecutive milestone times
bound each stage. The GPU-queue wait recorded on the job is drawn apart from OCR processing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from ingestion.charts.svg import TOP, Chart, Rect, Tick, fmt_number
from ingestion.models import IngestionJob, JobMilestone

ROW = 24
LABEL_WIDTH = 200
TIMELINE_WIDTH = 900  # drawn at most this wide (charts.css), so labels keep their size
STAGES = {
    "fetched": ("Ambil berkas", "tl-fetch"),
    "parsed": ("Baca isi", "tl-parse"),
    "ocr": ("OCR — pemrosesan", "tl-ocr"),
    "chunked": ("Potong teks", "tl-chunk"),
    "embedded": ("Buat vektor", "tl-embed"),
    "indexed": ("Indeks", "tl-index"),
    "needs_review": ("Indeks (perlu ditinjau)", "tl-index"),
    "skipped": ("Periksa identitas (dilewati)", "tl-other"),
    "failed": ("Sampai gagal", "tl-failed"),
}
QUEUE = ("Antrean", "tl-other")
GPU_QUEUE = ("OCR — antrean GPU", "tl-ocr-wait")


@dataclass(frozen=True, slots=True)
class Segment:
    label: str
    css: str
    start: datetime
    end: datetime

    @property
    def seconds(self) -> float:
        return max((self.end - self.start).total_seconds(), 0.0)


def segments(job: IngestionJob, milestones: Iterable[JobMilestone]) -> list[Segment]:
    """Consecutive stage spans in time order; OCR split into GPU wait and processing."""
    timed = sorted(((m.created_at, m.milestone) for m in milestones), key=lambda p: p[0])
    if not timed:
        return []
    out: list[Segment] = []
    start = job.started_at or timed[0][0]
    if job.started_at and job.created_at < job.started_at:
        out.append(Segment(*QUEUE, job.created_at, job.started_at))
    previous = start
    for moment, key in timed:
        if key not in STAGES:
            continue  # ocr_pending only announces the OCR attempt
        moment = max(moment, previous)
        if key == "ocr" and job.gpu_queue_ms:
            waited = min(_span(previous, moment), job.gpu_queue_ms / 1000)
            split = previous + timedelta(seconds=waited)
            out.append(Segment(*GPU_QUEUE, previous, split))
            out.append(Segment(*STAGES[key], split, moment))
        else:
            out.append(Segment(*STAGES[key], previous, moment))
        previous = moment
    return out


def _span(start: datetime, end: datetime) -> float:
    return (end - start).total_seconds()


def fmt_seconds(seconds: float) -> str:
    if seconds < 1:
        return f"{round(seconds * 1000)} md"
    if seconds < 60:
        return f"{fmt_number(round(seconds, 1))} dtk"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} mnt {rest} dtk"


def timeline_chart(job: IngestionJob, milestones: Iterable[JobMilestone]) -> Chart | None:
    spans = segments(job, milestones)
    if not spans:
        return None
    origin = spans[0].start
    total = max(_span(origin, spans[-1].end), 1e-3)
    height = TOP + ROW * len(spans) + 30
    chart = Chart(
        "chart-timeline",
        "Linimasa tahap pekerjaan",
        f"Batang horizontal per tahap, total {fmt_seconds(total)}: "
        + ", ".join(f"{s.label} {fmt_seconds(s.seconds)}" for s in spans)
        + ".",
        width=TIMELINE_WIDTH,
        height=height,
        left=LABEL_WIDTH,
    )
    plot_w = chart.plot_right - chart.plot_left
    for index, span in enumerate(spans):
        y = TOP + index * ROW
        x = chart.plot_left + plot_w * _span(origin, span.start) / total
        width = max(plot_w * span.seconds / total, 2.0)
        text = f"{span.label}: {fmt_seconds(span.seconds)}"
        chart.rects.append(Rect(round(x, 1), y + 4, round(width, 1), ROW - 8, span.css, text))
        chart.row_labels.append(Tick(y + ROW / 2, f"{span.label} · {fmt_seconds(span.seconds)}"))
    for share in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = chart.plot_left + plot_w * share
        chart.x_ticks.append(Tick(round(x, 1), fmt_seconds(total * share)))
    chart.table_head = ["Tahap", "Mulai (dari awal)", "Durasi"]
    chart.table_rows = [
        [s.label, fmt_seconds(_span(origin, s.start)), fmt_seconds(s.seconds)] for s in spans
    ]
    return chart
