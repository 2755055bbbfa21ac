"""Graceful drain under the ASGI workers: uvicorn takes SIGTERM itself (gunicorn's own
worker.handle_exit never runs), so the worker hook in docker/gunicorn.conf.py must set the
drain flag from uvicorn's handler, or new requests would not get 503 + Retry-After."""

from __future__ import annotations

import runpy
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from uvicorn.config import Config
from uvicorn.server import Server

from aceh_rag.platform.drain import is_draining, stop_draining

CONF = Path(__file__).resolve().parents[2] / "docker" / "gunicorn.conf.py"


@pytest.fixture
def restored_server() -> Iterator[None]:
    original = Server.handle_exit
    yield
    Server.handle_exit = original  # type: ignore[method-assign]
    stop_draining()


@pytest.mark.usefixtures("restored_server")
def test_sigterm_to_a_uvicorn_worker_starts_the_drain() -> None:
    conf = runpy.run_path(str(CONF))
    conf["post_worker_init"](None)
    server = Server(Config(app=lambda scope, receive, send: None))
    assert not is_draining()

    server.handle_exit(signal.SIGTERM, None)

    assert is_draining()
    assert server.should_exit  # uvicorn's own shutdown still runs
