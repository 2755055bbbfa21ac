"""pgserver's handle list is rewritten without a lock, so processes starting together can
drop the supervisor's pid; the server then outlives everyone. Before it exits, the
supervisor forgets the dead and puts its own pid back, so the server stops with it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from aceh_rag.embedded_pg import reclaim_handle


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_dropped_supervisor_pid_is_put_back_and_the_dead_are_forgotten(tmp_path: Path) -> None:
    handles = tmp_path / ".handle_pids.json"
    handles.write_text(json.dumps([_dead_pid()]))  # our pid was lost by a racing writer

    assert reclaim_handle(tmp_path) == [os.getpid()]
    assert json.loads(handles.read_text()) == [os.getpid()]


def test_a_live_peer_keeps_its_handle_beside_ours(tmp_path: Path) -> None:
    handles = tmp_path / ".handle_pids.json"
    peer = os.getppid()
    handles.write_text(json.dumps([peer, os.getpid()]))

    assert sorted(reclaim_handle(tmp_path)) == sorted([peer, os.getpid()])


@pytest.mark.parametrize("torn", ["[1, 2", ""])  # cut mid-write, or truncated before it
def test_a_list_that_stays_unreadable_is_left_alone_so_live_peers_keep_their_handles(
    tmp_path: Path, torn: str
) -> None:
    handles = tmp_path / ".handle_pids.json"
    handles.write_text(torn)

    assert reclaim_handle(tmp_path) == []
    assert handles.read_text() == torn


def test_a_missing_list_becomes_ours(tmp_path: Path) -> None:
    assert reclaim_handle(tmp_path) == [os.getpid()]
