"""A live server for the MCP tests: the real ASGI app (Django + /mcp) under uvicorn in a
thread on a free port, started once per session. Its requests use their own database
connections, so tests that store data use ``transactional_db``."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def live_url(django_db_setup: Any) -> Iterator[str]:
    """Server threads close their connections after each call (CONN_MAX_AGE 0 for the
    connections they open), so none is left open when the test database is dropped."""
    from django.db import connections

    from aceh_rag.asgi import build_application

    connections.settings["default"]["CONN_MAX_AGE"] = 0

    port = _free_port()
    config = uvicorn.Config(
        build_application(), host="127.0.0.1", port=port, lifespan="on", log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="mcp-live-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "the live server did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
