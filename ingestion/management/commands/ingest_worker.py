"""``manage.py ingest_worker [--once]``: process admin upload jobs.

SIGTERM/SIGINT set a flag: the document in progress is finished, then the loop exits 0.
On start, ``processing`` jobs whose heartbeat is older than ``JOB_STALE_SECONDS`` (or
``--stale-minutes``) and whose document lock is free (a worker that died mid-document) go
back to the queue.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from datetime import timedelta
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections, connection

from aceh_rag.platform.heartbeat import start_heartbeat, stop_heartbeat
from ingestion.jobs import (
    claim_next_upload_job,
    fail_crashed_job,
    requeue_stale_jobs,
    run_upload_job,
)
from ingestion.models import IngestionJob
from ingestion.pipeline.engines import loaded_models

log = logging.getLogger("ingestion.worker")


class Command(BaseCommand):
    help = "Memproses antrean unggahan admin melalui pipeline ingestion."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="proses antrean lalu keluar")
        parser.add_argument(
            "--stale-minutes", type=float, default=None, help="bawaan: JOB_STALE_SECONDS"
        )
        parser.add_argument("--poll-seconds", type=float, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()

        def on_signal(signum: int, frame: FrameType | None) -> None:
            log.info("worker: signal %s, finishing the current document", signum)
            stop.set()

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
        if not options["once"]:
            start_heartbeat(loaded_models)  # dormant unless MANAGER_URL is set
        try:
            self._loop(stop, options)
        finally:
            stop_heartbeat()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _loop(self, stop: threading.Event, options: dict[str, Any]) -> None:
        poll = options["poll_seconds"] or float(settings.UPLOAD_WORKER_POLL_SECONDS)
        stale = options["stale_minutes"]
        requeue_stale_jobs(
            timedelta(minutes=stale) if stale else timedelta(seconds=settings.JOB_STALE_SECONDS)
        )
        log.info("worker: ready, polling the upload queue every %.1fs", poll)
        processed = 0
        while not stop.is_set():
            if not connection.in_atomic_block:  # a test's transaction must survive
                close_old_connections()  # drop a connection Postgres closed while idle
            job = claim_next_upload_job()
            if job is None:
                if options["once"]:
                    break
                stop.wait(poll)
                continue
            started = time.monotonic()
            outcome = _run_guarded(job)
            processed += 1
            log.info("worker: job %s → %s in %.2fs", job.pk, outcome, time.monotonic() - started)
            if options["once"] and outcome == "deferred":
                break  # another process holds the document; do not spin on it
        self.stdout.write(f"ingest_worker: {processed} pekerjaan diproses")


def _run_guarded(job: IngestionJob) -> str:
    """Run one job; an unexpected crash fails that job instead of the whole worker.

    Otherwise the job would sit in ``processing`` and, requeued on the next start, crash
    the worker again: one poison file would stop the whole upload queue.
    """
    try:
        return str(run_upload_job(job).outcome)
    except Exception:
        log.exception("worker: job %s crashed", job.pk)
        try:
            fail_crashed_job(job)
        except Exception:
            log.exception("worker: could not record the failure of job %s", job.pk)
        return "failed"
