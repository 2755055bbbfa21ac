"""A fresh file:// object store per test, and a way to put objects in it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ingestion import storage as storage_module


@contextmanager
def file_object_store(tmp_path: Path, settings: Any, *, max_retries: int) -> Iterator[Path]:
    """Point OBJECT_STORAGE_URL at a temp dir, with fast retries and the local models."""
    root = tmp_path / "objects"
    root.mkdir()
    settings.OBJECT_STORAGE_URL = root.as_uri()
    settings.KAFKA_MAX_RETRIES = max_retries
    settings.KAFKA_RETRY_BACKOFF_SECONDS = 0.01
    settings.MODEL_GATEWAY_URL = None
    storage_module._cached.cache_clear()
    yield root
    storage_module._cached.cache_clear()


def put_object(root: Path, key: str, data: bytes) -> str:
    path = root / key
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return key
