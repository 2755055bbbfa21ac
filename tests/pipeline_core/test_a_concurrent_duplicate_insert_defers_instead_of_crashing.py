"""Two keys with the same bytes and version, decided at once: the second insert loses the
unique (checksum, version) race. That run is deferred — no crash, no milestone — and its
retry follows rule 3 (the row the winner stored)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.pipeline import identity
from ingestion.pipeline.runner import Outcome, ingest
from tests.pipeline_core.helpers import (
    LEGAL_TEXT,
    RecordingObserver,
    doc_id,
    make_request,
    put_object,
)

pytestmark = pytest.mark.django_db


def test_losing_the_insert_race_defers_and_the_retry_skips_to_the_winner(
    store_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    put_object(store_dir, "a/qanun.txt", LEGAL_TEXT.encode())
    winner = ingest(make_request("a/qanun.txt", source_key="jdih-a", source_version="v1"))
    request = make_request("a/qanun.txt", source_key="jdih-b", source_version="v1")
    real_decide = identity.decide
    # This run decided before the winner's row existed.
    monkeypatch.setattr(
        identity, "decide", lambda *_a: identity.Decision(identity.Action.NEW, None, "race")
    )
    observer = RecordingObserver()
    result = ingest(request, observer)
    assert result.outcome is Outcome.DEFERRED
    assert observer.events == []
    monkeypatch.setattr(identity, "decide", real_decide)
    retry = ingest(request, RecordingObserver())
    assert retry.outcome is Outcome.SKIPPED
    assert retry.document_id == doc_id(winner)
