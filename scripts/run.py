"""`make run`: migrate, ensure an admin, then supervise the web server and the upload worker.

Ctrl-C (SIGINT) or SIGTERM stops both children cleanly: each finishes what it is doing and
exits; anything still alive after the grace period is killed. Each child runs in a process
group of its own, so the signal reaches it from this supervisor only — whether it came
from a terminal, a service manager or ``kill -INT <pid>`` — and the escalation kills the
whole group: a gunicorn worker left behind by its master cannot outlive us. This process
also holds a handle on the embedded Postgres (when it is used), so the server stops when
we exit. ``--bind HOST:PORT`` serves elsewhere than 127.0.0.1:8000 (the data directory is
``ACEH_RAG_DATA_DIR``, read in settings).
"""

from __future__ import annotations

import argparse
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
DEFAULT_BIND = "127.0.0.1:8000"


def manage(*args: str) -> None:
    subprocess.run([PY, "manage.py", *args], cwd=ROOT, check=True)


def wait_for_port(bind: str, timeout: float, give_up: list[int]) -> bool:
    """True once ``bind`` accepts connections; False after ``timeout`` or once ``give_up``
    holds a signal."""
    host, _, port = bind.rpartition(":")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not give_up:
        try:
            with socket.create_connection((host or "127.0.0.1", int(port)), timeout=1):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def start_children(bind: str) -> list[subprocess.Popen[bytes]]:
    # The ASGI app serves Django and the MCP server (/mcp) on one port (aceh_rag.asgi).
    web = [PY, "-m", "gunicorn", "aceh_rag.asgi:application", "-c", "docker/gunicorn.conf.py"]
    # process_group=0: each child leads a group of its own (its pid is the group id), which
    # its own children (gunicorn's workers) join.
    return [
        subprocess.Popen([*web, "--bind", bind], cwd=ROOT, process_group=0),
        subprocess.Popen([PY, "manage.py", "ingest_worker"], cwd=ROOT, process_group=0),
    ]


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass  # the whole group is gone already


def stop_children(children: list[subprocess.Popen[bytes]], signum: int) -> None:
    """One signal to each child's group (the one we got: SIGINT is gunicorn's quick exit),
    then SIGKILL to every group with a process left when the grace period ends."""
    for child in children:
        signal_group(child.pid, signum)
    deadline = time.monotonic() + GRACE_SECONDS
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(f"run: proses {child.pid} tidak berhenti; grupnya dimatikan", flush=True)
    for child in children:
        # The leader may have exited while a process of its group (an orphaned worker) lives.
        while group_alive(child.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if group_alive(child.pid):
            signal_group(child.pid, signal.SIGKILL)
        child.wait()


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Aceh RAG: web server and upload worker")
    parser.add_argument("--bind", default=DEFAULT_BIND, help="HOST:PORT (127.0.0.1:8000)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    started = time.monotonic()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")
    import django

    django.setup()  # joins (or starts) the embedded Postgres and holds a handle on it
    from django.conf import settings

    manage("migrate", "--noinput", "-v", "0")
    manage("ensure_admin")
    bind = args.bind
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    children = start_children(bind)
    if wait_for_port(bind, timeout=60, give_up=received):
        print(
            f"Aceh RAG siap di http://{bind}/ ({time.monotonic() - started:.1f} s). "
            "Tekan Ctrl-C untuk berhenti.",
            flush=True,
        )
    while not received and all(child.poll() is None for child in children):
        time.sleep(0.3)
    stop_children(children, received[0] if received else signal.SIGTERM)
    if settings.DATABASES["default"]["HOST"] == str(settings.EMBEDDED_POSTGRES_DIR):
        from aceh_rag.embedded_pg import reclaim_handle

        reclaim_handle(settings.EMBEDDED_POSTGRES_DIR)
    failed = [c.returncode for c in children if c.returncode not in (0, -signal.SIGTERM)]
    return 0 if received or not failed else 1


if __name__ == "__main__":
    sys.exit(main())
