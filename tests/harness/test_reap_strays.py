"""Servers a dead pytest left behind are stopped by the runner's clean-up."""

from __future__ import annotations

from pathlib import Path

from scripts.kafka import pid_alive
from scripts.services import RedisServer, reap_strays


def test_a_redis_left_running_in_the_run_dir_is_stopped(tmp_path: Path) -> None:
    orphan = RedisServer(work_dir=tmp_path / "redis-abc")
    orphan.start()
    assert orphan.process is not None
    pid = orphan.process.pid

    reaped = reap_strays(tmp_path, timeout=10.0)
    orphan.process.wait(10.0)  # reap our own zombie so the pid check below is meaningful

    assert reaped == 1
    assert not pid_alive(pid)


def test_pid_files_of_unrelated_processes_are_left_alone(tmp_path: Path) -> None:
    (tmp_path / "other.pid").write_text("1\n")

    assert reap_strays(tmp_path) == 0
