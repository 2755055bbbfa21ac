"""Redis down: audit events spool to disk, then replay in order when Redis returns."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from aceh_rag.platform.audit import AuditConfig, AuditEvent, Auditor
from aceh_rag.platform.context import CallContext
from tests.platform.helpers import RedisProcess, free_port, redis_available

pytestmark = pytest.mark.skipif(not redis_available(), reason="no redis-server binary")


def auditor_for(port: int, spool: Path, **overrides: object) -> Auditor:
    values: dict = {
        "redis_url": f"redis://127.0.0.1:{port}/0",
        "spool_dir": spool,
        "retry_interval_s": 0.2,
        "socket_timeout_s": 0.5,
    }
    values.update(overrides)
    return Auditor(AuditConfig(**values))


def event(n: int) -> AuditEvent:
    return AuditEvent("embed", "multilingual-e5-small-q4", ctx=CallContext(job_id=f"job-{n}"))


def wait_for_files(spool: Path, count: int, timeout: float = 5.0) -> list[Path]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        files = sorted(spool.glob("*.json")) if spool.is_dir() else []
        if len(files) >= count:
            return files
        time.sleep(0.02)
    raise AssertionError(f"expected {count} spooled events in {spool}")


def job_ids(server: RedisProcess) -> list[str]:
    client = server.client()
    rows: list[tuple[bytes, dict[bytes, bytes]]] = client.xrange("ahu.ai.audit")  # type: ignore[assignment]
    client.close()
    return [fields[b"job_id"].decode() for _, fields in rows]


def test_with_redis_down_events_are_spooled_and_emitting_never_blocks(tmp_path: Path) -> None:
    spool = tmp_path / "spool"
    auditor = auditor_for(free_port(), spool)

    started = time.monotonic()
    for n in range(3):
        auditor.emit(event(n))
    emit_time = time.monotonic() - started

    files = wait_for_files(spool, 3)
    assert emit_time < 0.05
    assert auditor.flush(0.5) is False
    auditor.close()
    assert len(files) == 3


def test_when_redis_returns_the_spool_is_replayed_in_order(tmp_path: Path) -> None:
    port = free_port()
    spool = tmp_path / "spool"
    auditor = auditor_for(port, spool)
    for n in range(3):
        auditor.emit(event(n))
    wait_for_files(spool, 3)

    server = RedisProcess(tmp_path, port).start()
    try:
        for n in range(3, 5):
            auditor.emit(event(n))
        assert auditor.flush(10)
        auditor.close()
        assert job_ids(server) == [f"job-{n}" for n in range(5)]
    finally:
        server.stop()
    assert list(spool.glob("*.json")) == []


def test_events_spooled_by_a_stopped_process_are_sent_by_the_next_one(tmp_path: Path) -> None:
    port = free_port()
    spool = tmp_path / "spool"
    first = auditor_for(port, spool)
    for n in range(4):
        first.emit(event(n))
    first.close()
    assert len(list(spool.glob("*.json"))) == 4

    server = RedisProcess(tmp_path, port).start()
    try:
        second = auditor_for(port, spool)
        assert second.flush(10)
        second.close()
        assert job_ids(server) == [f"job-{n}" for n in range(4)]
    finally:
        server.stop()


def test_an_overflowing_queue_spools_instead_of_dropping_and_keeps_the_order(
    tmp_path: Path,
) -> None:
    port = free_port()
    spool = tmp_path / "spool"
    auditor = auditor_for(port, spool, queue_size=2)
    for n in range(60):
        auditor.emit(event(n))

    server = RedisProcess(tmp_path, port).start()
    try:
        assert auditor.flush(15)
        auditor.close()
        assert job_ids(server) == [f"job-{n}" for n in range(60)]
    finally:
        server.stop()
