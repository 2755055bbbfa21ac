"""Fixtures of the consolidation tests (builders live in ``helpers.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ingestion.pipeline import embed, runner
from tests.object_store import file_object_store
from tests.search.helpers import HashEmbedder


@pytest.fixture
def store_dir(tmp_path: Path, settings: Any) -> Iterator[Path]:
    """A fresh file:// object store for documents ingested through the real pipeline."""
    with file_object_store(tmp_path, settings, max_retries=2) as root:
        yield root


@pytest.fixture(autouse=True)
def hashed_embeddings(monkeypatch: pytest.MonkeyPatch) -> HashEmbedder:
    """The pipeline and search embed with the hashed bag of words, not the e5 model (the
    chains have thousands of passages; the consolidation does not depend on the vectors)."""
    embedder = HashEmbedder()
    monkeypatch.setattr(runner, "get_embedder", lambda: embedder)
    monkeypatch.setattr(embed, "get_embedder", lambda: embedder)
    return embedder
