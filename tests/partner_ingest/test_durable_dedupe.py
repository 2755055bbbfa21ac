"""jobId dedupe survives restarts; a failed jobId is the partner's retry path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from ingestion.models import Document, IngestionJob, JobState
from partner_events.models import StageEvent
from tests.partner_ingest.helpers import LEGAL_TEXT, doc_uploaded, ingest_event, put_object

pytestmark = pytest.mark.django_db(transaction=True)
REPO = Path(__file__).resolve().parents[2]


def _fresh_process_ingest(record: dict[str, object], store: Path) -> subprocess.CompletedProcess:
    """``manage.py ingest_event`` in a new process: nothing in memory carries over."""
    from psycopg.conninfo import make_conninfo

    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = make_conninfo(
        "",
        dbname=db["NAME"],
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=str(db["PORT"]) if db["PORT"] else None,
    )
    env["OBJECT_STORAGE_URL"] = store.as_uri()
    return subprocess.run(
        [sys.executable, "manage.py", "ingest_event", "-"],
        input=json.dumps(record).encode(),
        capture_output=True,
        cwd=REPO,
        env=env,
        timeout=120,
        check=False,
    )


def test_a_completed_job_id_is_not_processed_again_even_by_a_new_process(
    store_dir: Path,
) -> None:
    key = put_object(store_dir, "jdih/qanun.txt", LEGAL_TEXT.encode())
    record = doc_uploaded(key)
    assert ingest_event(record).code == 0

    again = ingest_event(record)
    restarted = _fresh_process_ingest(record, store_dir)

    assert (again.code, again.lines) == (0, [])
    assert "skipped" in again.stderr
    assert restarted.returncode == 0, restarted.stderr.decode()
    assert restarted.stdout.strip() == b""
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert (job.state, job.attempts) == (JobState.DONE, 1)
    assert StageEvent.objects.filter(job=job).count() == 5


def test_a_failed_job_id_is_processed_again_once_the_object_appears(store_dir: Path) -> None:
    record = doc_uploaded("jdih/nanti.txt")
    first = ingest_event(record)
    assert [w[0] for w in first.wire] == ["failed"]

    put_object(store_dir, "jdih/nanti.txt", LEGAL_TEXT.encode())
    second = ingest_event(record)

    assert second.code == 0, second.stderr
    assert [w[0] for w in second.wire] == ["fetched", "parsed", "chunked", "embedded", "indexed"]
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert (job.state, job.attempts) == (JobState.DONE, 2)
    seqs = list(StageEvent.objects.filter(job=job).order_by("seq").values_list("seq", flat=True))
    assert seqs == [1, 2, 3, 4, 5, 6]


def test_a_stale_processing_job_is_a_crash_leftover_and_runs_again(store_dir: Path) -> None:
    key = put_object(store_dir, "jdih/qanun.txt", LEGAL_TEXT.encode())
    record = doc_uploaded(key)
    IngestionJob.objects.create(
        partner_job_id=record["jobId"],
        origin="kafka",
        state=JobState.PROCESSING,
        heartbeat_at=timezone.now() - timedelta(hours=2),
        attempts=1,
    )

    run = ingest_event(record)

    assert run.code == 0, run.stderr
    assert run.wire[-1][:3] == ("indexed", "indexed", "done")
    assert Document.objects.count() == 1


def test_a_job_id_being_processed_elsewhere_is_deferred_untouched(store_dir: Path) -> None:
    record = doc_uploaded(put_object(store_dir, "jdih/qanun.txt", LEGAL_TEXT.encode()))
    beat = timezone.now()
    IngestionJob.objects.create(
        partner_job_id=record["jobId"],
        origin="kafka",
        state=JobState.PROCESSING,
        heartbeat_at=beat,
        attempts=1,
    )

    run = ingest_event(record)

    assert (run.code, run.lines) == (3, [])
    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert (job.state, job.heartbeat_at, job.attempts) == (JobState.PROCESSING, beat, 1)
