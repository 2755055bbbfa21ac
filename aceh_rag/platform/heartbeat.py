"""Heartbeat to the AHU GPU manager (conventions §4.5) for processes that load local models.

Every ``HEARTBEAT_INTERVAL_SECONDS`` a daemon thread POSTs ``{MANAGER_URL}/v1/heartbeat``
with the engine, this instance, and the models it has loaded. Dormant when MANAGER_URL is
unset; a failed beat is only logged, never raised, so the manager being away cannot hurt
ingestion.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
from django.conf import settings

from aceh_rag.platform.context import ENGINE

log = logging.getLogger(__name__)

HEARTBEAT_PATH = "/v1/heartbeat"


@dataclass(frozen=True, slots=True)
class HeartbeatConfig:
    manager_url: str
    interval_s: float = 30.0
    engine: str = ENGINE
    config_version: str = "1"
    timeout_s: float = 5.0

    @classmethod
    def from_settings(cls) -> HeartbeatConfig | None:
        url = settings.MANAGER_URL
        if not url:
            return None
        return cls(
            manager_url=str(url).rstrip("/"),
            interval_s=settings.HEARTBEAT_INTERVAL_SECONDS,
            engine=settings.ENGINE_NAME,
            config_version=str(settings.GATEWAY_CONFIG_VERSION),
        )


def instance_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def heartbeat_payload(config: HeartbeatConfig, models: list[str]) -> dict[str, Any]:
    return {
        "engine": config.engine,
        "instance": instance_id(),
        "pid": os.getpid(),
        "models": models,
        "ts": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "config_version": config.config_version,
    }


class Heartbeat:
    def __init__(self, config: HeartbeatConfig, models: Callable[[], list[str]]) -> None:
        self.config = config
        self._models = models
        self._stop = threading.Event()
        self._http = httpx.Client(timeout=config.timeout_s)
        self._failing = False
        self.beats = 0  # successful beats, for diagnostics
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread.ident is not None:  # a beat()-only heartbeat never started one
            self._thread.join(timeout)
        self._http.close()

    def beat(self) -> bool:
        started = time.monotonic()
        url = self.config.manager_url + HEARTBEAT_PATH
        try:
            payload = heartbeat_payload(self.config, list(self._models()))
            response = self._http.post(url, json=payload)
            response.raise_for_status()
        except Exception as exc:
            # Warn once per outage, not every interval.
            level = logging.DEBUG if self._failing else logging.WARNING
            log.log(level, "heartbeat to %s failed: %s", url, exc)
            self._failing = True
            return False
        if self._failing:
            log.info("heartbeat to %s restored", url)
        self._failing = False
        self.beats += 1
        log.debug("heartbeat sent in %.0f ms", (time.monotonic() - started) * 1000)
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            self.beat()
            self._stop.wait(self.config.interval_s)


_lock = threading.Lock()
_heartbeat: Heartbeat | None = None


def start_heartbeat(
    models: Callable[[], list[str]], config: HeartbeatConfig | None = None
) -> Heartbeat | None:
    """Start the process's heartbeat once; None (and no thread) when MANAGER_URL is unset."""
    global _heartbeat
    with _lock:
        if _heartbeat is not None:
            return _heartbeat
        config = config or HeartbeatConfig.from_settings()
        if config is None:
            return None
        _heartbeat = Heartbeat(config, models).start()
        log.info(
            "heartbeat every %.0f s to %s%s", config.interval_s, config.manager_url, HEARTBEAT_PATH
        )
        return _heartbeat


def stop_heartbeat() -> None:
    global _heartbeat
    with _lock:
        if _heartbeat is not None:
            _heartbeat.stop()
        _heartbeat = None
