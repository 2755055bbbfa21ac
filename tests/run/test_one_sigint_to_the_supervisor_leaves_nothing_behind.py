"""``make run``'s supervisor (scripts/run.py, started as make starts it) stops everything
on one SIGINT sent to it alone (a service manager, ``kill -INT <pid>``): within the grace
period no process of it remains, its port is free and the embedded Postgres has stopped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from scripts.run import GRACE_SECONDS
from tests.run.processes import alive, descendants, free_port, port_free

ROOT = Path(__file__).resolve().parents[2]
READY = "siap di http://"


def _postmaster(data_dir: Path) -> int | None:
    pid_file = data_dir / "postgres" / "postmaster.pid"
    try:
        return int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _booted(pid: int, timeout: float = 60.0) -> set[int]:
    """The supervisor's processes once gunicorn's workers have booted too: "siap" follows
    gunicorn's master listening, and on a loaded machine its workers fork a little later."""
    deadline = time.monotonic() + timeout
    tree = descendants(pid)
    while len(tree) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
        tree = descendants(pid)
    return tree


def _collect(child: subprocess.Popen[str], lines: list[str], ready: threading.Event) -> None:
    assert child.stdout is not None
    for line in child.stdout:
        lines.append(line)
        if READY in line:
            ready.set()


def test_one_sigint_to_the_supervisor_stops_every_process_port_and_postgres(
    tmp_path: Path,
) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "OBJECT_STORAGE_URL"}}
    env.update(ACEH_RAG_DATA_DIR=str(tmp_path / "data"), ADMIN_USERNAME="admin")
    env.update(ADMIN_PASSWORD="kata-sandi-uji-panjang", KAFKA_ENABLED="false")
    supervisor = subprocess.Popen(
        [sys.executable, "scripts/run.py", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # like a service manager: no terminal, its own group
    )
    lines: list[str] = []
    ready = threading.Event()
    threading.Thread(target=_collect, args=(supervisor, lines, ready), daemon=True).start()
    try:
        assert ready.wait(300), "".join(lines)
        tree = _booted(supervisor.pid)
        postmaster = _postmaster(tmp_path / "data")
        assert postmaster is not None and alive(postmaster), "the embedded Postgres runs"
        assert len(tree) >= 3, f"gunicorn, a worker and ingest_worker: {tree}"

        os.kill(supervisor.pid, signal.SIGINT)  # the supervisor alone, not its group
        # Within the grace period: the children got the signal and stopped by themselves,
        # rather than waiting out the grace period for a signal that never came.
        supervisor.wait(timeout=GRACE_SECONDS)
        deadline = time.monotonic() + 15  # Postgres' own fast shutdown after the last handle
        while alive(postmaster) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        if supervisor.poll() is None:
            os.killpg(supervisor.pid, signal.SIGKILL)
    left = sorted(pid for pid in tree if alive(pid))
    assert left == [], "".join(lines)
    assert port_free("127.0.0.1", port)
    assert not alive(postmaster), "".join(lines)
