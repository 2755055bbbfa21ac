"""``manage.py check_doc_uploaded [PATH|-] [--jsonl]``: the contract verdict, no side effects.

Reads one raw Kafka record value (or one per line with ``--jsonl``) and prints the
``check_doc_uploaded`` object of DESIGN.md. Nothing is written, fetched or published.
Exit status: 0 accept/skip, 1 any reject, 2 usage errors.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, BinaryIO

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser

from partner_events.contract.validate import ContractConfig, Outcome, validate_doc_uploaded

USAGE_ERROR = 2
REJECT_EXIT = 1


def _read_source(path: str, stdin: BinaryIO | None) -> bytes:
    if path == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        return stream.read()
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise CommandError(
            f"tidak dapat membaca {path}: {exc.strerror or exc}", returncode=USAGE_ERROR
        ) from exc


def _records(data: bytes, jsonl: bool) -> list[bytes]:
    if not jsonl:
        return [data]
    # Blank lines (including the one after a final newline) carry no record.
    lines = (line.rstrip(b"\r") for line in data.split(b"\n"))
    return [line for line in lines if line.strip()]


class Command(BaseCommand):
    help = (
        "Periksa satu record doc.uploaded terhadap kontrak mitra dan cetak verdict JSON, "
        "tanpa efek samping (tanpa database, object storage, atau Kafka)."
    )
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    # Tests pass a binary stream via call_command(..., stdin=io.BytesIO(...)).
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", default="-", help="berkas record, atau - (stdin)")
        parser.add_argument(
            "--jsonl", action="store_true", help="setiap baris input adalah satu record value"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            config = ContractConfig.from_settings()
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc), returncode=USAGE_ERROR) from exc
        data = _read_source(options["path"], options.get("stdin"))
        rejected = False
        for record in _records(data, options["jsonl"]):
            verdict = validate_doc_uploaded(record, config)
            rejected = rejected or verdict.outcome is Outcome.REJECT
            output = verdict.to_json(config)
            indent = None if options["jsonl"] else 2
            self.stdout.write(json.dumps(output, ensure_ascii=False, indent=indent))
        self.stdout.flush()
        if rejected:
            raise SystemExit(REJECT_EXIT)
