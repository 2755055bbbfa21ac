"""``manage.py ingest_worker`` exits 0 promptly on SIGTERM (make run and containers rely on it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.harness.database import current_database_url

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)


def test_sigterm_stops_an_idle_upload_worker_with_exit_0(tmp_path: Path) -> None:
    if "DATABASE_URL" not in os.environ:
        pytest.skip("DATABASE_URL tidak di-set: jalankan lewat scripts/test_runner.py")
    env = {
        **os.environ,
        "DATABASE_URL": current_database_url(),
        "OBJECT_STORAGE_URL": tmp_path.as_uri(),
    }
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "ingest_worker", "--poll-seconds", "0.2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        time.sleep(3)  # past startup: settings, stale-job sweep, first poll
        assert worker.poll() is None, worker.communicate()[0]
        started = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=20)
    finally:
        if worker.poll() is None:
            worker.kill()
    assert worker.returncode == 0, output
    assert time.monotonic() - started < 10
    assert "ingest_worker: 0 pekerjaan diproses" in output
