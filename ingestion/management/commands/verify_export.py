"""``manage.py verify_export DIR``: check an export's manifest and every checksum, alone.

Exit 0 when the export is whole; otherwise exit 1 naming the first bad path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.export.manifest import ExportError, verify
from ingestion.export.reader import opened


class Command(BaseCommand):
    help = "Memeriksa manifest dan checksum sebuah ekspor korpus."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dir", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with opened(options["dir"]) as root:
                manifest = verify(root)
        except ExportError as exc:
            raise CommandError(str(exc)) from exc
        rows = sum(manifest.counts.values())
        self.stdout.write(
            f"verify_export: utuh — format {manifest.format_version}, {len(manifest.files)}"
            f" berkas, {rows} baris, model embedding {manifest.embedding_model}"
        )
