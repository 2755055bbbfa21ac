"""``manage.py ingest_worker`` exits 0 promptly on SIGTERM (make run and containers rely on it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
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
    lines: list[str] = []
    ready = threading.Event()
    reader = threading.Thread(target=_collect, args=(worker, lines, ready), daemon=True)
    reader.start()
    try:
        # Past startup (settings, stale-job sweep): a fixed sleep raced a loaded machine.
        assert ready.wait(120), "".join(lines)
        assert worker.poll() is None, "".join(lines)
        started = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=20)
        reader.join(timeout=5)
    finally:
        if worker.poll() is None:
            worker.kill()
    output = "".join(lines)
    assert worker.returncode == 0, output
    assert time.monotonic() - started < 10
    assert "ingest_worker: 0 pekerjaan diproses" in output


def _collect(worker: subprocess.Popen[str], lines: list[str], ready: threading.Event) -> None:
    assert worker.stdout is not None
    for line in worker.stdout:
        lines.append(line)
        if "worker: ready" in line:
            ready.set()
