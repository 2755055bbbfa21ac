"""Small shared helpers for the platform tests (fixtures live in tests/gateway_server.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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
