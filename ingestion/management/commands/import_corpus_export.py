"""``manage.py import_corpus_export DIR [--merge]``: rebuild an instance from an export.

Refuses a database that already holds documents, jobs or tokens unless ``--merge`` (then
the identity rules decide which documents are new). The export is verified first; any
failure rolls the whole import back (see ``ingestion.export.reader``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.export.manifest import ExportError
from ingestion.export.reader import ImportOptions, import_export


class Command(BaseCommand):
    help = "Memulihkan instans dari ekspor korpus (folder atau zip)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dir", type=Path)
        parser.add_argument("--merge", action="store_true")
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--progress", dest="progress", action="store_true", default=None)
        group.add_argument("--no-progress", dest="progress", action="store_false")

    def handle(self, *args: Any, **options: Any) -> None:
        stream = getattr(self.stderr, "_out", sys.stderr)
        show = options["progress"] if options["progress"] is not None else stream.isatty()
        try:
            result = import_export(
                options["dir"],
                ImportOptions(merge=options["merge"], progress=show, stream=stream),
            )
        except ExportError as exc:
            raise CommandError(str(exc)) from exc
        for warning in result.warnings:
            self.stderr.write(f"peringatan: {warning}")
        inserted = ", ".join(f"{k} {v}" for k, v in sorted(result.counts.items()))
        skipped = sum(result.skipped.values())
        mode = "dengan data turunan" if result.used_derived else "diproses ulang dari berkas asli"
        self.stdout.write(
            f"import_corpus_export: {inserted}; {skipped} baris sudah ada;"
            f" {result.reingested} dokumen {mode}; dalam {result.seconds:.1f} dtk"
        )
