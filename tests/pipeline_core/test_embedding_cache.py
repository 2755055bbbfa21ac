"""Passages already embedded with the same model are read back, not recomputed."""

from __future__ import annotations

import numpy as np
import pytest

from ingestion.models import EmbeddingCache
from ingestion.pipeline.embed import embed_passages_cached
from tests.pipeline_core.helpers import CountingEmbedder

pytestmark = pytest.mark.django_db


def test_a_second_pass_over_the_same_passages_calls_the_model_only_for_new_text() -> None:
    embedder = CountingEmbedder()
    first = embed_passages_cached(["Pasal 1 ketentuan umum", "Pasal 2 retribusi"], embedder)
    assert embedder.computed == 2
    second = embed_passages_cached(
        ["Pasal 2 retribusi", "Pasal 1 ketentuan umum", "Pasal 3 penutup"], embedder
    )
    assert embedder.computed == 3
    assert np.allclose(second[0], first[1], atol=1e-6)
    assert np.allclose(second[1], first[0], atol=1e-6)
    assert np.linalg.norm(second[2]) == pytest.approx(1.0, abs=1e-3)
    assert EmbeddingCache.objects.filter(model=embedder.model_id).count() == 3


def test_the_cache_is_kept_apart_per_model() -> None:
    first = CountingEmbedder("model-a")
    other = CountingEmbedder("model-b")
    embed_passages_cached(["teks yang sama"], first)
    embed_passages_cached(["teks yang sama"], other)
    assert (first.computed, other.computed) == (1, 1)


def test_duplicate_passages_in_one_call_are_computed_once() -> None:
    embedder = CountingEmbedder()
    vectors = embed_passages_cached(["sama", "sama", "beda"], embedder)
    assert embedder.computed == 2
    assert vectors[0] == vectors[1]
