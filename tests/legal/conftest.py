"""Fixtures for the legal tests: a corpus regulation indexed through the real stages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.legal.helpers import IndexRegulation, index_corpus_regulation


@pytest.fixture
def index_regulation(db: Any) -> IndexRegulation:
    """``index_corpus_regulation`` with database access."""
    return index_corpus_regulation
