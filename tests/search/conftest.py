"""Fixtures of the search tests."""

from __future__ import annotations

import pytest

from tests.relations.helpers import StoreRegulation, store_regulation


@pytest.fixture
def regulation() -> StoreRegulation:
    """Store a regulation as the pipeline's index step would (real chunker, legal units)."""
    return store_regulation
