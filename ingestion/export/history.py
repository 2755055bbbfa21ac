"""The record of successful exports, read by ``/metrics``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Max

from ingestion.models import CorpusExport

if TYPE_CHECKING:  # the writer's imports are heavy; /metrics needs none of them
    from ingestion.export.writer import ExportOptions, ExportResult


def record_export(result: ExportResult, options: ExportOptions) -> CorpusExport:
    return CorpusExport.objects.create(
        path=str(result.path),
        documents=result.documents,
        size_bytes=result.bytes,
        with_derived=options.with_derived,
        incremental=options.compare_checksums,
    )


def last_export_timestamp() -> float | None:
    """Unix time of the newest successful export, None when there was none."""
    newest = CorpusExport.objects.aggregate(at=Max("finished_at"))["at"]
    return None if newest is None else newest.timestamp()
