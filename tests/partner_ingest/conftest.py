"""Fixtures of the partner_ingest tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.object_store import file_object_store


@pytest.fixture
def store_dir(tmp_path: Path, settings: Any) -> Iterator[Path]:
    """A fresh file:// object store, fast retries and the local models for this test."""
    with file_object_store(tmp_path, settings, max_retries=1) as root:
        yield root
