"""``manage.py reembed`` moves chunks and their units in batches, and resumes after a stop."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import override_settings

from ingestion.management.commands import reembed
from ingestion.models import Chunk, LegalUnit
from ingestion.pipeline.embed import get_embedder
from ingestion.pipeline.embed_choices import LocalEmbedEngine
from ingestion.pipeline.runner import ingest
from tests.embed_engine.test_unit_vectors_come_from_their_chunks_one_pass import REGULATION
from tests.pipeline_core.helpers import RecordingObserver, doc_id, make_request, put_object

pytestmark = pytest.mark.django_db


class Stop(Exception):
    pass


def _age(document_id: Any) -> int:
    """Make the document look embedded by an older model; returns its chunk count."""
    LegalUnit.objects.filter(document_id=document_id).update(embedding_model="model-lama")
    return Chunk.objects.filter(document_id=document_id).update(
        embedding_model="model-lama", embedding=[0.0] * 383 + [1.0]
    )


@pytest.mark.parametrize("engine", LocalEmbedEngine.values)
def test_a_stopped_reembed_resumes_and_moves_units_too(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch, engine: str
) -> None:
    with override_settings(MODEL_GATEWAY_URL=None, LOCAL_EMBED_ENGINE=engine):
        _stop_and_resume(store_dir, monkeypatch)


def _stop_and_resume(store_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    put_object(store_dir, "a/qanun7.txt", REGULATION.encode())
    document = doc_id(ingest(make_request("a/qanun7.txt"), RecordingObserver()))
    total = _age(document)
    assert total >= 2
    encoded: list[int] = []
    real = reembed.document_vectors

    def stop_after_first(drafts: Any, embedder: Any) -> Any:
        if encoded:
            raise Stop
        encoded.append(len(drafts))
        return real(drafts, embedder)

    monkeypatch.setattr(reembed, "document_vectors", stop_after_first)
    with pytest.raises(Stop):
        call_command("reembed", batch=1, stdout=io.StringIO())
    model = get_embedder().model_id
    assert Chunk.objects.filter(document_id=document, embedding_model=model).count() == 1

    def counting(drafts: Any, embedder: Any) -> Any:
        encoded.append(len(drafts))
        return real(drafts, embedder)

    monkeypatch.setattr(reembed, "document_vectors", counting)
    out = io.StringIO()
    call_command("reembed", batch=1, stdout=out)
    assert sum(encoded) == total  # the moved chunk was not embedded again
    assert f"{total}/{total}" not in out.getvalue() and f"{total - 1}/{total - 1}" in out.getvalue()
    assert not Chunk.objects.filter(document_id=document).exclude(embedding_model=model).exists()
    sub_units = LegalUnit.objects.filter(document_id=document, depth__gt=0)
    assert sub_units.exists() and not sub_units.exclude(embedding_model=model).exists()
