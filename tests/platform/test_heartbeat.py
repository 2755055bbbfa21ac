"""The heartbeat reaches the manager with who we are and what we have loaded."""

from __future__ import annotations

import os
import socket
import time

from aceh_rag.platform.heartbeat import Heartbeat, HeartbeatConfig
from tests.gateway_server import (
    FakeGateway,
)
from tests.platform.helpers import free_port


def wait_for(predicate: object, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(predicate) and predicate():
            return
        time.sleep(0.02)
    raise AssertionError("condition not reached in time")


def test_heartbeats_post_engine_instance_and_loaded_models_periodically(
    gateway_server: FakeGateway,
) -> None:
    loaded = ["rapidocr-ppocr"]
    config = HeartbeatConfig(manager_url=gateway_server.url, interval_s=0.2, config_version="2")
    beat = Heartbeat(config, lambda: list(loaded)).start()
    try:
        wait_for(lambda: len(gateway_server.requests_to("POST", "/v1/heartbeat")) >= 1)
        loaded.append("multilingual-e5-small-q4")
        wait_for(lambda: len(gateway_server.requests_to("POST", "/v1/heartbeat")) >= 3)
    finally:
        beat.stop()

    sent = gateway_server.requests_to("POST", "/v1/heartbeat")
    first, last = sent[0].json(), sent[-1].json()
    assert first["engine"] == "aceh-rag"
    assert first["instance"] == f"{socket.gethostname()}:{os.getpid()}"
    assert first["pid"] == os.getpid()
    assert first["models"] == ["rapidocr-ppocr"]
    assert last["models"] == ["rapidocr-ppocr", "multilingual-e5-small-q4"]
    assert first["ts"].endswith("Z")
    assert 0.15 <= sent[1].at - sent[0].at < 1.0


def test_an_unreachable_manager_only_logs_and_the_heartbeat_keeps_trying() -> None:
    config = HeartbeatConfig(manager_url=f"http://127.0.0.1:{free_port()}", interval_s=0.05)
    beat = Heartbeat(config, lambda: [])

    assert beat.beat() is False
    beat.start()
    time.sleep(0.3)
    alive = beat._thread.is_alive()
    beat.stop()

    assert alive
    assert beat.beats == 0
