"""During a real Redis outage the spool stays under AUDIT_SPOOL_MAX_BYTES.

Near the cap events keep their metadata and lose their bodies (recorded in the event);
past it they are dropped and counted; emitting stays instant; when Redis returns every
kept event arrives in order.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from pathlib import Path

import pytest
import zstandard
from prometheus_client import REGISTRY

from aceh_rag.platform.audit import AuditConfig, AuditEvent, Auditor
from aceh_rag.platform.context import CallContext
from scripts.services import RedisServer

CAP = 512 * 1024
BODY = 64 * 1024
EVENTS = 200


def counter(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def spooled_bytes(spool: Path) -> int:
    return sum(p.stat().st_size for p in spool.iterdir() if p.name != ".replay.lock")


def wait_idle(auditor: Auditor, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while auditor.queued and time.monotonic() < deadline:
        time.sleep(0.02)
    assert auditor.queued == 0


def stream(server: RedisServer) -> list[dict[str, bytes]]:
    import redis

    client = redis.Redis.from_url(server.url)
    rows: list[tuple[bytes, dict[bytes, bytes]]] = client.xrange("ahu.ai.audit")  # type: ignore[assignment]
    client.close()
    return [{k.decode(): v for k, v in fields.items()} for _, fields in rows]


def event(n: int, body: bytes | None = None) -> AuditEvent:
    return AuditEvent(
        "ocr", "rapidocr-ppocr", ctx=CallContext(job_id=f"job-{n:03d}"), request_body=body
    )


def test_near_the_cap_bodies_go_past_it_events_are_counted_and_order_survives(
    redis_server: RedisServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    spool = tmp_path / "spool"
    config = AuditConfig(
        redis_url=redis_server.url,
        spool_dir=spool,
        retry_interval_s=0.2,
        socket_timeout_s=0.5,
        spool_max_bytes=CAP,
    )
    auditor = Auditor(config)
    auditor.emit(event(0, b"sebelum gangguan"))
    assert auditor.flush(10)

    redis_server.stop()
    dropped_before = counter("aceh_rag_audit_events_dropped_total", reason="spool_full")
    stripped_before = counter("aceh_rag_audit_bodies_dropped_total")
    bodies = {n: os.urandom(BODY) for n in range(1, EVENTS + 1)}  # incompressible
    slowest = 0.0
    with caplog.at_level(logging.WARNING, logger="aceh_rag.platform.audit"):
        for n, body in bodies.items():
            started = time.perf_counter()
            auditor.emit(event(n, body))  # must neither block nor raise
            slowest = max(slowest, time.perf_counter() - started)
        wait_idle(auditor)

    dropped = int(
        counter("aceh_rag_audit_events_dropped_total", reason="spool_full") - dropped_before
    )
    stripped = int(counter("aceh_rag_audit_bodies_dropped_total") - stripped_before)
    kept = len(list(spool.glob("*.json")))
    # A blocked emit would wait out the 0.5 s socket timeout; this bound leaves room for load.
    assert slowest < 0.2
    assert spooled_bytes(spool) <= CAP
    assert 0 < stripped < kept and dropped > 0
    assert kept + dropped == EVENTS
    print(
        f"spool cap {CAP} B, {EVENTS} events of {BODY} B during the outage: {kept} spooled "
        f"({kept - stripped} with bodies, {stripped} metadata only), {dropped} dropped, "
        f"{spooled_bytes(spool)} B on disk, slowest emit {slowest * 1000:.2f} ms"
    )
    drop_logs = [r for r in caplog.records if "dropped" in r.getMessage()]
    assert len(drop_logs) == 1  # rate-limited, however many were dropped

    redis_server.start()
    assert auditor.flush(20)
    auditor.emit(event(999, b"setelah pulih"))
    assert auditor.flush(10)
    auditor.close()

    entries = stream(redis_server)
    jobs = [e["job_id"].decode() for e in entries]
    assert jobs[0] == "job-000" and jobs[-1] == "job-999"
    assert jobs[1:-1] == [f"job-{n:03d}" for n in range(1, kept + 1)]  # oldest kept, in order
    unzstd = zstandard.ZstdDecompressor().decompress
    with_body = [e for e in entries[1:-1] if e["truncation_reason"] == b""]
    without = [e for e in entries[1:-1] if e["truncation_reason"] == b"spool_cap"]
    assert len(with_body) == kept - stripped and len(without) == stripped
    for entry in with_body:
        n = int(entry["job_id"][4:])
        assert unzstd(entry["request_body"]) == bodies[n]
    for entry in without:
        n = int(entry["job_id"][4:])
        assert entry["request_body_truncated"] == b"true"
        assert unzstd(entry["request_body"]) == b""
        assert entry["request_body_bytes"] == str(BODY).encode()
        assert entry["request_body_sha256"] == hashlib.sha256(bodies[n]).hexdigest().encode()
        assert entry["operation"] == b"ocr" and entry["model"] == b"rapidocr-ppocr"
    assert unzstd(entries[-1]["request_body"]) == b"setelah pulih"
    assert list(spool.glob("*.json")) == []
