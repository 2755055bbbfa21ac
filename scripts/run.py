"""`make run`: migrate, ensure an admin, then supervise the web server and the upload worker.

Ctrl-C (SIGINT) or SIGTERM stops both children cleanly: each finishes what it is doing and
exits; anything still alive after the grace period is killed. This process also holds a
handle on the embedded Postgres (when it is used), so the server stops when we exit.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
GRACE_SECONDS = 30


def manage(*args: str) -> None:
    subprocess.run([PY, "manage.py", *args], cwd=ROOT, check=True)


def wait_for_port(bind: str, timeout: float) -> bool:
    host, _, port = bind.rpartition(":")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host or "127.0.0.1", int(port)), timeout=1):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def start_children(bind: str) -> list[subprocess.Popen[bytes]]:
    # The ASGI app serves Django and the MCP server (/mcp) on one port (aceh_rag.asgi).
    web = [PY, "-m", "gunicorn", "aceh_rag.asgi:application", "-c", "docker/gunicorn.conf.py"]
    return [
        subprocess.Popen([*web, "--bind", bind], cwd=ROOT),
        subprocess.Popen([PY, "manage.py", "ingest_worker"], cwd=ROOT),
    ]


def stop_children(children: list[subprocess.Popen[bytes]], signum: int) -> None:
    # A terminal's Ctrl-C already reached every child (same process group); sending gunicorn
    # a second, different signal would turn its quick exit into a 30 s graceful wait.
    if signum != signal.SIGINT:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def main() -> int:
    started = time.monotonic()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    import django

    django.setup()  # joins (or starts) the embedded Postgres and holds a handle on it
    from django.conf import settings

    manage("migrate", "--noinput", "-v", "0")
    manage("ensure_admin")
    bind = "127.0.0.1:8000"
    children = start_children(bind)
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    if wait_for_port(bind, timeout=60):
        print(
            f"Aceh RAG siap di http://{bind}/ ({time.monotonic() - started:.1f} s). "
            "Tekan Ctrl-C untuk berhenti.",
            flush=True,
        )
    while not received and all(child.poll() is None for child in children):
        time.sleep(0.3)
    stop_children(children, received[0] if received else signal.SIGTERM)
    if settings.DATABASES["default"]["HOST"] == str(settings.EMBEDDED_POSTGRES_DIR):
        from aceh_rag.embedded_pg import prune_dead_handles

        prune_dead_handles(settings.EMBEDDED_POSTGRES_DIR)
    failed = [c.returncode for c in children if c.returncode not in (0, -signal.SIGTERM)]
    return 0 if received or not failed else 1


if __name__ == "__main__":
    sys.exit(main())
