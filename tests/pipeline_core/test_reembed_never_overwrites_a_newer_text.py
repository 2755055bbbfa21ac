"""``reembed`` stores a vector only for the text it embedded.

A chunk corrected (and re-embedded by the review) while reembed was computing its batch
keeps the review's vector: reembed's vector of the old text is dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from ingestion.management.commands import reembed
from ingestion.models import Chunk
from ingestion.pipeline import embed
from ingestion.pipeline.runner import ingest
from tests.pipeline_core.helpers import (
    LEGAL_TEXT,
    RecordingObserver,
    doc_id,
    make_request,
    put_object,
)

pytestmark = pytest.mark.django_db

REVIEWED = [0.5] * 384


def test_a_chunk_corrected_during_reembed_keeps_the_reviewed_vector(
    store_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    put_object(store_dir, "a/qanun.txt", LEGAL_TEXT.encode())
    result = ingest(make_request("a/qanun.txt"), RecordingObserver())
    chunk = Chunk.objects.filter(document_id=doc_id(result)).order_by("ordinal").first()
    assert chunk is not None
    Chunk.objects.filter(pk=chunk.pk).update(embedding_model="model-lama")
    model_id = embed.get_embedder().model_id
    real = reembed.document_vectors

    def embed_while_a_reviewer_approves(drafts: Any, embedder: Any) -> Any:
        vectors = real(drafts, embedder)
        Chunk.objects.filter(pk=chunk.pk).update(
            text="Teks yang sudah dikoreksi peninjau.",
            embedding=REVIEWED,
            embedding_model=model_id,
        )
        return vectors

    monkeypatch.setattr(
        "ingestion.management.commands.reembed.document_vectors",
        embed_while_a_reviewer_approves,
    )
    call_command("reembed")
    stored = Chunk.objects.get(pk=chunk.pk)
    assert stored.text == "Teks yang sudah dikoreksi peninjau."
    assert stored.embedding is not None
    assert [round(float(x), 3) for x in stored.embedding] == REVIEWED
