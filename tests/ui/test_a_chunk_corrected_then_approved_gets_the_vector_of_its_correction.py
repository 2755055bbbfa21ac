"""A correction saved first and approved later is embedded as corrected.

A parked chunk holds the vector of its OCR text. Vectors are read back by the digest of
their row's passage (``embed.stored_vectors``), so a row whose text changes must not keep
the old vector: approval would read it back as the correction's.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from ingestion import review
from ingestion.models import Chunk, DocumentStatus
from tests.ui.helpers import FixedEmbedder, make_chunks, make_document

pytestmark = pytest.mark.django_db

CORRECTED = "Pasal 1 teks yang benar"


def test_approving_a_saved_correction_embeds_the_corrected_text(reviewer_user: Any) -> None:
    embedder = FixedEmbedder(settings.EMBEDDING_DIM)
    (chunk,) = make_chunks(make_document(status=DocumentStatus.NEEDS_REVIEW), 1, parked=True)
    ocr_vector = [0.0] * (settings.EMBEDDING_DIM - 1) + [1.0]
    Chunk.objects.filter(pk=chunk.pk).update(embedding=ocr_vector, embedding_model="uji-tetap")
    review.edit_chunk(chunk.pk, user=reviewer_user, text=CORRECTED)
    edited = Chunk.objects.get(pk=chunk.pk)
    assert edited.embedding is None and edited.embedding_model == ""
    review.approve_chunk(chunk.pk, user=reviewer_user, embedder=embedder)
    approved = Chunk.objects.get(pk=chunk.pk)
    passage = f"{approved.heading_path}\n{CORRECTED}"
    assert embedder.calls == [[passage]]
    fresh = FixedEmbedder(settings.EMBEDDING_DIM).embed_passages([passage])[0]
    assert list(approved.embedding or []) == pytest.approx(fresh)
