"""Reading the process table from /proc: a supervisor's descendants, who is still alive."""

from __future__ import annotations

import os
import socket
from pathlib import Path


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: split after the last ")".
    return text[text.rindex(")") + 2 :].split()


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped has stopped: it holds no port nor connection)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        children = {pid for pid, parent in parents.items() if parent in frontier}
        frontier = children - found
        found |= children
    return found


def port_free(host: str, port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
