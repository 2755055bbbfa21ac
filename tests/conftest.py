"""Shared test configuration: service fixtures from the harness, the fake model gateway, and
the file store most pipeline tests run against (a folder's conftest.py may override it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.object_store import file_object_store

pytest_plugins = [
    "tests.harness.fixtures",
    "tests.gateway_server",
]


@pytest.fixture
def store_dir(tmp_path: Path, settings: Any) -> Iterator[Path]:
    """A fresh file:// object store and fast retries for this test."""
    with file_object_store(tmp_path, settings, max_retries=2) as root:
        yield root


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    """In-process rate-limit counters start empty in every test (token names repeat)."""
    from aceh_rag.platform import ratelimit

    ratelimit.reset()
    yield
