"""Fixtures of the relation tests (builders live in ``helpers.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ingestion.legal.relations import SectionText
from tests.object_store import file_object_store
from tests.relations.helpers import StoreRegulation, chunk_sections, store_regulation


@pytest.fixture
def chunked() -> Callable[[str], list[SectionText]]:
    """Text → the sections the pipeline stores for it."""
    return chunk_sections


@pytest.fixture
def regulation() -> StoreRegulation:
    """Store a regulation as the pipeline would and run its relation step."""
    return store_regulation


@pytest.fixture
def store_dir(tmp_path: Path, settings: Any) -> Iterator[Path]:
    """A fresh file:// object store for documents ingested through the real pipeline."""
    with file_object_store(tmp_path, settings, max_retries=2) as root:
        yield root
