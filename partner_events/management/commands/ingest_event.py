"""``manage.py ingest_event [PATH|-] [--publish stdout|kafka|none]``: one record, end to end.

Runs one doc.uploaded record value through exactly the Kafka worker's code path
(:func:`partner_events.handler.handle_record`: validation, jobId dedupe, lock, fetch,
pipeline, persistence), synchronously. Operators use it to replay a partner's logged event.
With ``--publish stdout`` (default) stdout carries only the stage events, one JSON line
each, in publication order; the outcome goes to stderr.

Exit status: 0 indexed / needs_review / skipped, 1 error, 3 deferred (another worker holds
the document lock or the jobId; run it again later), 2 usage errors.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser

from partner_events.handler import ConsumerOutcome, handle_record
from partner_events.management.commands.check_doc_uploaded import USAGE_ERROR, _read_source
from partner_events.publisher import PUBLISHER_NAMES, get_publisher

EXIT_CODES = {
    ConsumerOutcome.INDEXED: 0,
    ConsumerOutcome.NEEDS_REVIEW: 0,
    ConsumerOutcome.SKIPPED: 0,
    ConsumerOutcome.ERROR: 1,
    ConsumerOutcome.DEFERRED: 3,
}


class Command(BaseCommand):
    help = (
        "Jalankan satu record doc.uploaded melalui jalur kerja worker Kafka secara sinkron "
        "dan cetak stage event (satu baris JSON per event). Exit: 0 indexed/needs_review/"
        "skipped, 1 error, 3 deferred, 2 kesalahan penggunaan."
    )
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", default="-", help="berkas record, atau - (stdin)")
        parser.add_argument(
            "--publish",
            choices=PUBLISHER_NAMES,
            default="stdout",
            help="ke mana stage event dikirim (bawaan: stdout)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        raw = _read_source(options["path"], options.get("stdin"))
        try:
            publisher = get_publisher(options["publish"], stream=self.stdout)
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc), returncode=USAGE_ERROR) from exc
        try:
            result = handle_record(raw, publisher=publisher)
        finally:
            publisher.close()
        self.stderr.write(
            f"ingest_event: {result.outcome.value} jobId={result.job_id or '-'} "
            f"aiDocumentId={result.document_id or '-'}"
            + (f" — {result.reason}" if result.reason else "")
        )
        code = EXIT_CODES[result.outcome]
        if code:
            raise SystemExit(code)
