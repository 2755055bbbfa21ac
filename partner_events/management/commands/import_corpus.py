"""``manage.py import_corpus PATH … [--manifest CSV] [options]``: bulk import of a corpus.

Folders (recursively), globs, single files, or a manifest (columns file, jenis, nomor,
tahun, judul, status_berlaku, url; ``file`` relative to the manifest) go through the
admin upload's road (:mod:`ingestion.bulk`), or with ``--via-kafka`` to object storage and
the doc.uploaded topic for a consumer group of ``kafka_worker``s (:mod:`partner_events.bulk`;
that is why this command lives in the Kafka app). A progress bar with ETA shows on a
terminal. Ctrl-C (or SIGTERM) finishes the files in hand and stops; running again
continues: what is indexed is skipped, what failed is retried. The end summary is printed
and written as CSV (``--summary``, one row per file).
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from ingestion.bulk.items import ImportItem, ManifestError, from_manifest, from_paths
from ingestion.bulk.one import ImportSettings, ItemResult
from ingestion.bulk.run import run_import
from ingestion.bulk.summary import summarize, write_csv
from ingestion.sources import SourceType
from partner_events.bulk import KafkaTarget, publish_items

DEFAULT_SUMMARY = "import_corpus_summary.csv"


@contextmanager
def stop_on_signals(stop: threading.Event, say: Any) -> Iterator[None]:
    """SIGINT/SIGTERM set ``stop`` (the loop finishes the files in hand); a second one
    is the default again, for a person who really wants out now."""

    def handler(signum: int, _frame: Any) -> None:
        say(
            f"\nDihentikan ({signal.Signals(signum).name}):"
            " menyelesaikan berkas yang sedang diproses…"
        )
        stop.set()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, previous[sig])

    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    if threading.current_thread() is not threading.main_thread():
        yield  # signals are only delivered to the main thread (call_command in a thread)
        return
    for sig in previous:
        signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


class Command(BaseCommand):
    help = "Impor massal berkas peraturan (folder, glob, atau manifest CSV)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="*", help="folder, glob atau berkas")
        parser.add_argument(
            "--manifest",
            type=Path,
            help="CSV: file, jenis, nomor, tahun, judul, status_berlaku, url",
        )
        parser.add_argument(
            "--source-type", default=SourceType.JDIH.value, choices=SourceType.values
        )
        parser.add_argument("--collection", default="import_corpus")
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument("--limit", type=int, default=None)
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("--via-kafka", action="store_true")
        parser.add_argument("--summary", type=Path, default=Path(DEFAULT_SUMMARY))
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--progress", dest="progress", action="store_true", default=None)
        group.add_argument("--no-progress", dest="progress", action="store_false")

    def handle(self, *args: Any, **options: Any) -> None:
        items = self._items(options)
        settings = ImportSettings(
            source_type=options["source_type"], collection=options["collection"]
        )
        stream = getattr(self.stderr, "_out", sys.stderr)
        show = options["progress"] if options["progress"] is not None else stream.isatty()
        bar = tqdm(total=len(items), desc="impor", unit="berkas", file=stream, disable=not show)
        stop = threading.Event()
        started = time.monotonic()

        def advance(result: ItemResult) -> None:
            bar.update(1)
            bar.set_postfix_str(result.status.value, refresh=False)

        with stop_on_signals(stop, self.stderr.write):
            results = self._run(items, settings, options, stop, advance)
        bar.close()
        summary = summarize(results, time.monotonic() - started)
        write_csv(results, options["summary"])
        for line in summary.lines():
            self.stdout.write(line)
        if stop.is_set():
            self.stdout.write(
                f"  belum diproses: {len(items) - len(results)} (jalankan ulang untuk melanjutkan)"
            )
        self.stdout.write(f"  ringkasan CSV: {options['summary']}")

    def _items(self, options: dict[str, Any]) -> list[ImportItem]:
        if not options["paths"] and options["manifest"] is None:
            raise CommandError("Sebutkan PATH atau --manifest CSV")
        if options["workers"] < 1:
            raise CommandError("--workers minimal 1")
        items = from_paths(options["paths"]) if options["paths"] else []
        if options["manifest"] is not None:
            try:
                items += from_manifest(options["manifest"])
            except ManifestError as exc:
                raise CommandError(str(exc)) from exc
        limit = options["limit"]
        return items[:limit] if limit is not None and limit >= 0 else items

    def _run(
        self,
        items: list[ImportItem],
        settings: ImportSettings,
        options: dict[str, Any],
        stop: threading.Event,
        advance: Any,
    ) -> list[ItemResult]:
        if options["via_kafka"] and not options["dry_run"]:
            return publish_items(
                items, settings, KafkaTarget.from_settings(), stop=stop, on_result=advance
            )
        return run_import(
            items,
            settings,
            workers=options["workers"],
            dry_run=options["dry_run"],
            stop=stop,
            on_result=advance,
        )
