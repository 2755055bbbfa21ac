"""The end of an import: counts by status, failures by reason, and one CSV row per file."""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ingestion.bulk.one import ItemResult, ItemStatus

CSV_COLUMNS = (
    "file",
    "line",
    "status",
    "reason",
    "document_id",
    "citation",
    "regulation",
    "seconds",
)


@dataclass(frozen=True, slots=True)
class Summary:
    total: int
    by_status: dict[str, int]
    failed_by_reason: dict[str, int]
    skipped_by_reason: dict[str, int]
    not_regulation: int
    seconds: float

    def lines(self) -> list[str]:
        """What a person reads at the end (Indonesian)."""
        counts = ", ".join(f"{s.value} {self.by_status.get(s.value, 0)}" for s in ItemStatus)
        out = [f"import_corpus: {self.total} berkas dalam {self.seconds:.1f} dtk — {counts}"]
        if self.not_regulation:
            out.append(f"  terindeks tetapi bukan peraturan: {self.not_regulation}")
        for title, reasons in (
            ("dilewati", self.skipped_by_reason),
            ("gagal", self.failed_by_reason),
        ):
            for reason, count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
                out.append(f"  {title}: {count} × {reason}")
        return out


def _reason_group(result: ItemResult) -> str:
    # "Duplikat dari <judul>" names each original; grouped, the kind is what counts.
    return (
        result.reason.split(" dari ", 1)[0]
        if result.reason.startswith("Duplikat")
        else result.reason
    )


def summarize(results: Sequence[ItemResult], seconds: float) -> Summary:
    statuses = Counter(r.status.value for r in results)
    failed = Counter(_reason_group(r) for r in results if r.status is ItemStatus.FAILED)
    skipped = Counter(_reason_group(r) for r in results if r.status is ItemStatus.SKIPPED)
    return Summary(
        total=len(results),
        by_status=dict(statuses),
        failed_by_reason=dict(failed),
        skipped_by_reason=dict(skipped),
        not_regulation=sum(1 for r in results if r.regulation is False),
        seconds=seconds,
    )


def write_csv(results: Sequence[ItemResult], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for r in sorted(results, key=lambda r: (r.item.relpath, r.item.line or 0)):
            regulation = "" if r.regulation is None else str(r.regulation).lower()
            writer.writerow(
                [
                    r.item.relpath,
                    r.item.line or "",
                    r.status.value,
                    r.reason,
                    r.document_id,
                    r.citation,
                    regulation,
                    f"{r.seconds:.3f}",
                ]
            )
