"""``manage.py reembed`` moves chunks made by another model to the current one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from django.core.management import call_command

from ingestion.models import Chunk
from ingestion.pipeline.embed import get_embedder
from ingestion.pipeline.runner import ingest
from tests.pipeline_core.helpers import (
    LEGAL_TEXT,
    RecordingObserver,
    doc_id,
    make_request,
    put_object,
)

pytestmark = pytest.mark.django_db


def test_chunks_from_an_old_model_get_current_vectors_and_model_id(
    store_dir: Path,
) -> None:
    put_object(store_dir, "a/qanun.txt", LEGAL_TEXT.encode())
    result = ingest(make_request("a/qanun.txt"), RecordingObserver())
    chunks = Chunk.objects.filter(document_id=doc_id(result))
    current = {c.pk: np.array(c.embedding) for c in chunks}
    chunks.update(embedding_model="model-lama", embedding=[0.0] * 383 + [1.0])
    call_command("reembed")
    model_id = get_embedder().model_id
    for chunk in Chunk.objects.filter(document_id=doc_id(result)):
        assert chunk.embedding_model == model_id
        assert np.allclose(np.array(chunk.embedding), current[chunk.pk], atol=1e-6)
