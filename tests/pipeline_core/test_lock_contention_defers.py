"""A document locked by another process is deferred: no work, no milestone."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from django.db import connection

from ingestion.models import Document
from ingestion.pipeline.runner import Outcome, ingest
from tests.pipeline_core.helpers import LEGAL_TEXT, RecordingObserver, make_request, put_object

pytestmark = pytest.mark.django_db


def _other_session() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    return psycopg.connect(autocommit=True, **params)


def test_a_document_whose_lock_is_held_elsewhere_is_deferred_without_milestones(
    store_dir: Path,
) -> None:
    put_object(store_dir, "a/qanun.txt", LEGAL_TEXT.encode())
    request = make_request("a/qanun.txt", source_key="jdih-locked")
    assert request.lock_key == "doc-uploaded:jdih-locked"
    with _other_session() as other:
        held = other.execute(
            "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [request.lock_key]
        ).fetchone()
        assert held == (True,)
        observer = RecordingObserver()
        result = ingest(request, observer)
        assert result.outcome is Outcome.DEFERRED
        assert observer.events == []
        assert not Document.objects.filter(metadata__source_key="jdih-locked").exists()
        other.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [request.lock_key])
    # Once the other process lets go, the same request goes through.
    again = ingest(request, RecordingObserver())
    assert again.outcome is Outcome.INDEXED
