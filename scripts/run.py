"""`make run`: migrate, ensure an admin, then supervise the web server and the upload worker.

Ctrl-C (SIGINT) or SIGTERM stops both children cleanly: each gets SIGTERM, finishes what it
is doing, and exits; anything still alive after the grace period is killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
GRACE_SECONDS = 30


def manage(*args: str) -> None:
    subprocess.run([PY, "manage.py", *args], cwd=ROOT, check=True)


def main() -> int:
    started = time.monotonic()
    manage("migrate", "--noinput", "-v", "0")
    manage("ensure_admin")
    manage("collectstatic", "--noinput", "-v", "0")
    bind = os.environ.get("BIND", "127.0.0.1:8000")
    children = [
        subprocess.Popen(
            [
                PY,
                "-m",
                "gunicorn",
                "aceh_rag.wsgi:application",
                "-c",
                "docker/gunicorn.conf.py",
                "--bind",
                bind,
            ],
            cwd=ROOT,
        ),
        subprocess.Popen([PY, "manage.py", "ingest_worker"], cwd=ROOT),
    ]
    print(
        f"Aceh RAG berjalan di http://{bind}/ (siap dalam {time.monotonic() - started:.1f} s). "
        "Tekan Ctrl-C untuk berhenti.",
        flush=True,
    )
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping and all(child.poll() is None for child in children):
        time.sleep(0.3)
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
    failed = [c.returncode for c in children if c.returncode not in (0, -signal.SIGTERM)]
    return 0 if stopping or not failed else 1


if __name__ == "__main__":
    sys.exit(main())
