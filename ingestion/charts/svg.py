"""Chart geometry in SVG user units; templates only print what is computed here.

Every chart carries its own text alternative: a title (the accessible name), a one-line
summary and the data as a table, so nothing is only visible as a shape.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 640
HEIGHT = 200
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 30


@dataclass(frozen=True, slots=True)
class Series:
    key: str
    label: str
    css: str


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    css: str
    title: str


@dataclass(frozen=True, slots=True)
class Line:
    points: str
    css: str
    label: str


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    css: str
    title: str


@dataclass(frozen=True, slots=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True, slots=True)
class Marker:
    """A vertical rule with a label (the review threshold on the confidence histogram)."""

    x: float
    label: str
    label_x: float
    anchor: str


@dataclass(slots=True)
class Chart:
    id: str
    title: str
    summary: str
    width: int = WIDTH
    height: int = HEIGHT
    rects: list[Rect] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    dots: list[Dot] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    legend: list[Series] = field(default_factory=list)
    row_labels: list[Tick] = field(default_factory=list)  # horizontal bar charts
    left: int = LEFT
    table_head: list[str] = field(default_factory=list)
    table_rows: list[list[str]] = field(default_factory=list)
    empty: bool = False

    @property
    def plot_left(self) -> int:
        return self.left

    @property
    def plot_right(self) -> int:
        return self.width - RIGHT

    @property
    def plot_bottom(self) -> int:
        return self.height - BOTTOM

    def marks(self) -> SafeString:
        """The grid, ticks and data shapes as SVG markup, every text escaped.

        Built as one string: a template loop over a few hundred shapes cost ~10 ms a poll.
        """
        out = ['<g class="grid" aria-hidden="true">']
        for tick in self.y_ticks:
            out.append(
                f'<line x1="{self.plot_left}" x2="{self.plot_right}" y1="{tick.pos}" '
                f'y2="{tick.pos}"/><text class="tick" x="{self.plot_left - 6}" y="{tick.pos}" '
                f'text-anchor="end" dominant-baseline="middle">{escape(tick.label)}</text>'
            )
        for tick in self.x_ticks:
            if self.row_labels:
                out.append(
                    f'<line x1="{tick.pos}" x2="{tick.pos}" y1="{TOP}" y2="{self.plot_bottom}"/>'
                )
            out.append(
                f'<text class="tick" x="{tick.pos}" y="{self.plot_bottom + 16}" '
                f'text-anchor="middle">{escape(tick.label)}</text>'
            )
        for tick in self.row_labels:
            out.append(
                f'<text class="tl-label" x="4" y="{tick.pos}" '
                f'dominant-baseline="middle">{escape(tick.label)}</text>'
            )
        out.append('</g><g class="data">')
        for r in self.rects:
            out.append(
                f'<rect class="{r.css}" x="{r.x}" y="{r.y}" width="{r.width}" '
                f'height="{r.height}"><title>{escape(r.title)}</title></rect>'
            )
        for line in self.lines:
            out.append(
                f'<polyline class="{line.css}" points="{line.points}">'
                f"<title>{escape(line.label)}</title></polyline>"
            )
        for d in self.dots:
            out.append(
                f'<circle class="{d.css}" cx="{d.x}" cy="{d.y}" r="2.5">'
                f"<title>{escape(d.title)}</title></circle>"
            )
        for m in self.markers:
            out.append(
                f'<line class="marker" x1="{m.x}" x2="{m.x}" y1="8" y2="{self.plot_bottom}"/>'
                f'<text class="marker-label" x="{m.label_x}" y="18" '
                f'text-anchor="{m.anchor}">{escape(m.label)}</text>'
            )
        out.append("</g>")
        return mark_safe("".join(out))

    def table_body(self) -> SafeString:
        rows = []
        for row in self.table_rows:
            head, *cells = (escape(cell) for cell in row)
            rows.append(
                f'<tr><th scope="row">{head}</th>{"".join(f"<td>{c}</td>" for c in cells)}</tr>'
            )
        return mark_safe("".join(rows))

    @property
    def mid_x(self) -> float:
        return (self.plot_left + self.plot_right) / 2

    @property
    def mid_y(self) -> float:
        return (TOP + self.plot_bottom) / 2

    @property
    def title_id(self) -> str:
        return f"{self.id}-title"

    @property
    def desc_id(self) -> str:
        return f"{self.id}-desc"


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10^k that is at least ``value`` (1 for nothing)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= value:
            return float(step * power)
    return float(10 * power)


def fmt_number(value: float) -> str:
    """Indonesian number style: decimal comma, no trailing zeros."""
    if float(value).is_integer():
        return f"{int(value):,}".replace(",", ".")
    return f"{value:.1f}".replace(".", ",")


def _y_ticks(top: float, plot_top: float, plot_bottom: float, unit: str = "") -> list[Tick]:
    ticks = []
    for share in (0.0, 0.5, 1.0):
        value = top * share
        y = plot_bottom - (plot_bottom - plot_top) * share
        ticks.append(Tick(round(y, 1), f"{fmt_number(value)}{unit}"))
    return ticks


def stacked_bars(
    chart: Chart,
    buckets: Sequence[tuple[str, Mapping[str, int]]],
    series: Sequence[Series],
    *,
    label_every: int = 1,
) -> Chart:
    """Bars per bucket, segments per series stacked bottom-up in ``series`` order."""
    totals = [sum(values.get(s.key, 0) for s in series) for _, values in buckets]
    top = nice_ceiling(max(totals, default=0))
    plot_h = chart.plot_bottom - TOP
    slot = (chart.plot_right - chart.plot_left) / max(len(buckets), 1)
    bar_w = max(slot * 0.72, 1.0)
    for index, (label, values) in enumerate(buckets):
        x = chart.plot_left + index * slot + (slot - bar_w) / 2
        base = float(chart.plot_bottom)
        for s in series:
            count = values.get(s.key, 0)
            if not count:
                continue
            height = plot_h * count / top
            base -= height
            chart.rects.append(
                Rect(
                    round(x, 1),
                    round(base, 1),
                    round(bar_w, 1),
                    round(height, 1),
                    s.css,
                    f"{label}: {s.label} {count}",
                )
            )
        if index % label_every == 0:
            chart.x_ticks.append(Tick(round(x + bar_w / 2, 1), label))
    chart.y_ticks = _y_ticks(top, TOP, chart.plot_bottom)
    chart.legend = list(series)
    chart.table_head = ["", *(s.label for s in series), "Jumlah"]
    chart.table_rows = [
        [label, *(str(values.get(s.key, 0)) for s in series), str(total)]
        for (label, values), total in zip(buckets, totals, strict=True)
        if total
    ]
    chart.empty = not any(totals)
    return chart


def line_series(
    chart: Chart,
    labels: Sequence[str],
    values: Mapping[str, Sequence[float | None]],
    series: Sequence[Series],
    *,
    unit: str = "",
    label_every: int = 1,
    dots: bool = False,
) -> Chart:
    """One polyline per series over shared x labels; ``None`` breaks a line (no data).

    ``dots`` marks every point too, for sparse series where lines would be mere stubs.
    """
    known = [v for s in series for v in values.get(s.key, ()) if v is not None]
    top = nice_ceiling(max(known, default=0))
    plot_h = chart.plot_bottom - TOP
    step = (chart.plot_right - chart.plot_left) / max(len(labels) - 1, 1)
    for s in series:
        run: list[str] = []
        for index, value in enumerate(values.get(s.key, ())):
            if value is None:
                _flush_line(chart, run, s)
                run = []
                continue
            x = chart.plot_left + index * step
            y = chart.plot_bottom - plot_h * value / top
            run.append(f"{x:.1f},{y:.1f}")
            if dots:
                title = f"{labels[index]}: {s.label} {fmt_number(round(value, 1))}{unit}"
                chart.dots.append(Dot(round(x, 1), round(y, 1), s.css, title))
        _flush_line(chart, run, s)
    for index, label in enumerate(labels):
        if index % label_every == 0:
            chart.x_ticks.append(Tick(round(chart.plot_left + index * step, 1), label))
    chart.y_ticks = _y_ticks(top, TOP, chart.plot_bottom, unit)
    chart.legend = list(series)
    chart.table_head = ["", *(s.label for s in series)]
    for index, label in enumerate(labels):
        cells = [values.get(s.key, [None] * len(labels))[index] for s in series]
        if any(c for c in cells):
            chart.table_rows.append(
                [label, *("—" if c is None else f"{fmt_number(round(c, 1))}{unit}" for c in cells)]
            )
    chart.empty = not known
    return chart


def _flush_line(chart: Chart, run: list[str], series: Series) -> None:
    if len(run) == 1:
        # A lone point between gaps still deserves to be seen: a short flat stroke.
        px, py = run[0].split(",")
        run = [*run, f"{float(px) + 3:.1f},{py}"]
    if run:
        chart.lines.append(Line(" ".join(run), series.css, series.label))


def histogram(
    chart: Chart,
    counts: Sequence[int],
    *,
    low: float,
    high: float,
    css: str,
    marker_at: float | None = None,
    marker_label: str = "",
) -> Chart:
    """Equal-width bins over [low, high] with an optional vertical marker at a value."""
    top = nice_ceiling(max(counts, default=0))
    plot_w = chart.plot_right - chart.plot_left
    plot_h = chart.plot_bottom - TOP
    slot = plot_w / max(len(counts), 1)
    width = (high - low) / max(len(counts), 1)
    for index, count in enumerate(counts):
        start = low + index * width
        label = f"{fmt_decimal(start)}–{fmt_decimal(start + width)}"
        if count:
            height = plot_h * count / top
            chart.rects.append(
                Rect(
                    round(chart.plot_left + index * slot + 0.5, 1),
                    round(chart.plot_bottom - height, 1),
                    round(max(slot - 1, 1), 1),
                    round(height, 1),
                    css,
                    f"{label}: {count}",
                )
            )
            chart.table_rows.append([label, str(count)])
    for index in range(0, len(counts) + 1, max(len(counts) // 5, 1)):
        chart.x_ticks.append(
            Tick(round(chart.plot_left + index * slot, 1), fmt_decimal(low + index * width))
        )
    if marker_at is not None and low <= marker_at <= high:
        x = chart.plot_left + plot_w * (marker_at - low) / (high - low)
        right_half = x > chart.plot_left + plot_w * 0.7
        chart.markers.append(
            Marker(
                round(x, 1),
                marker_label,
                round(x - 4 if right_half else x + 4, 1),
                "end" if right_half else "start",
            )
        )
    chart.y_ticks = _y_ticks(top, TOP, chart.plot_bottom)
    chart.table_head = ["Rentang keyakinan", "Jumlah potongan"]
    chart.empty = not any(counts)
    return chart


def fmt_decimal(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")
