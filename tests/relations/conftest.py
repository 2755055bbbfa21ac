"""Fixtures of the relation tests (builders live in ``helpers.py``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ingestion.legal.relations import SectionText
from tests.relations.helpers import StoreRegulation, chunk_sections, store_regulation


@pytest.fixture
def chunked() -> Callable[[str], list[SectionText]]:
    """Text → the sections the pipeline stores for it."""
    return chunk_sections


@pytest.fixture
def regulation() -> StoreRegulation:
    """Store a regulation as the pipeline would and run its relation step."""
    return store_regulation
