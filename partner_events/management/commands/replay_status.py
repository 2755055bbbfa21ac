"""``manage.py replay_status JOB_ID [--terminal-only] [--publish kafka|stdout]``.

Re-publishes a job's stage events from the outbox log (the reconciliation path for a
partner that missed a status): all of them in seq order, or only the last terminal one.
Nothing new is appended. ``JOB_ID`` is the partner's jobId or our internal job id.
``--publish stdout`` prints them for inspection without changing their publish status.
Exit status: 0 when every selected event was sent, 1 otherwise, 2 usage errors.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q

from ingestion.models import IngestionJob
from partner_events.outbox import replay_job
from partner_events.publisher import get_publisher

USAGE_ERROR = 2


def find_job(value: str) -> IngestionJob:
    try:
        job_id = UUID(value)
    except ValueError as exc:
        raise CommandError(f"JOB_ID harus UUID: {value!r}", returncode=USAGE_ERROR) from exc
    job = IngestionJob.objects.filter(Q(partner_job_id=job_id) | Q(pk=job_id)).first()
    if job is None:
        raise CommandError(f"pekerjaan {value} tidak ditemukan", returncode=USAGE_ERROR)
    return job


class Command(BaseCommand):
    help = "Terbitkan ulang stage event sebuah pekerjaan dari log outbox (rekonsiliasi)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("job_id", help="jobId mitra atau id pekerjaan internal")
        parser.add_argument(
            "--terminal-only", action="store_true", help="hanya event terminal terakhir"
        )
        parser.add_argument("--publish", choices=("kafka", "stdout"), default="kafka")

    def handle(self, *args: Any, **options: Any) -> None:
        job = find_job(options["job_id"])
        terminal_only = bool(options["terminal_only"])
        publisher = get_publisher(options["publish"], stream=self.stdout)
        try:
            wanted = job.stage_events.count() if not terminal_only else 1
            sent = replay_job(job, terminal_only=terminal_only, publisher=publisher)
        finally:
            publisher.close()
        self.stderr.write(f"replay_status: {sent} event diterbitkan ulang untuk {job}")
        if sent < wanted:
            raise SystemExit(1)
