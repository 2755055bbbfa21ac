"""Fixtures of the kafka_worker tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.kafka_worker.helpers import WorkerProcess


@pytest.fixture
def start_worker(tmp_path: Path, transactional_db: None) -> Iterator[Callable[..., WorkerProcess]]:
    """Factory for worker processes; all are stopped before the test database is flushed."""
    started: list[WorkerProcess] = []

    def start(env: dict[str, str], *args: str) -> WorkerProcess:
        worker = WorkerProcess(env, tmp_path / f"worker-{len(started)}.log", args)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()
        # Shown by pytest only when the test failed.
        print(f"--- {worker.log_path.name} ---\n{worker.log[-6000:]}")
