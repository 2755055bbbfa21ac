"""``manage.py export_corpus DIR [--with-derived] [--compare-checksums] [--zip]``.

Writes a portable export of the knowledge base (see ``ingestion.export``): the originals
under their checksum, the rows people and time made, and with ``--with-derived`` the
chunks, legal units and embeddings. ``--compare-checksums`` refreshes an export already in
DIR, copying only originals it does not hold yet. A progress bar with ETA shows on a
terminal (``--progress`` forces it, ``--no-progress`` hides it).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.export.history import record_export
from ingestion.export.manifest import ExportError
from ingestion.export.writer import ExportOptions, export_corpus


class Command(BaseCommand):
    help = "Mengekspor korpus (berkas asli, dokumen, tinjauan, pekerjaan, pengguna) ke folder."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dir", type=Path)
        parser.add_argument("--with-derived", action="store_true")
        parser.add_argument("--compare-checksums", action="store_true")
        parser.add_argument("--zip", action="store_true")
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--progress", dest="progress", action="store_true", default=None)
        group.add_argument("--no-progress", dest="progress", action="store_false")

    def handle(self, *args: Any, **options: Any) -> None:
        stream = getattr(self.stderr, "_out", sys.stderr)
        show = options["progress"] if options["progress"] is not None else stream.isatty()
        export_options = ExportOptions(
            with_derived=options["with_derived"],
            compare_checksums=options["compare_checksums"],
            zip=options["zip"],
            progress=show,
            stream=stream,
        )
        try:
            result = export_corpus(options["dir"], export_options)
        except ExportError as exc:
            raise CommandError(str(exc)) from exc
        record_export(result, export_options)
        for warning in result.warnings:
            self.stderr.write(f"peringatan: {warning}")
        self.stdout.write(
            f"export_corpus: {result.documents} dokumen, {result.originals_written} berkas asli"
            f" ditulis, {result.originals_reused} dipakai ulang, {result.bytes} byte"
            f" dalam {result.seconds:.1f} dtk → {result.path}"
        )
