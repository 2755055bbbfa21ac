"""Fixtures of the consolidation tests (builders live in ``helpers.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ingestion.pipeline import embed, runner
from tests.consolidation.helpers import (
    RESTATED_AGAIN,
    RESTATED_AGAIN_PENJELASAN,
    TIPIKOR,
    amending_tipikor,
    ingest,
)
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


@pytest.fixture
def tipikor_restated_twice(store_dir: Path) -> tuple[str, str, str]:
    """UU 31/1999, UU 20/2001, and a made-up UU 5/2003 restating Pasal 5 again (with its
    own Penjelasan): the ids of the original, the first and the second amendment."""
    original, first = (str(ingest(store_dir, name)) for name in TIPIKOR)
    text = amending_tipikor(RESTATED_AGAIN, penjelasan=RESTATED_AGAIN_PENJELASAN)
    second = ingest(store_dir, "uu_5_2003_perubahan_kedua_tipikor.md", text)
    return original, first, str(second)


@pytest.fixture
def tipikor(store_dir: Path) -> tuple[str, str]:
    """UU 31/1999 and its amendment UU 20/2001 (document ids), through the pipeline."""
    original, amending = (str(ingest(store_dir, name)) for name in TIPIKOR)
    return original, amending
