"""A worker that dies after the index committed but before the terminal event was saved
leaves the job ``processing``. The redelivery finds the same bytes already indexed; that
document is the job's own work, so the partner hears ``indexed/done`` for it, with its
stages, and never ``skipped`` ("konten sama dengan dokumen yang sudah ada"). Only the job
whose run wrote the document's content counts: a job that failed on the row before another
job indexed it is skipped on its retry like any other."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from ingestion.errors import PermanentError
from ingestion.models import Chunk, Document, DocumentStatus, IngestionJob, JobState
from ingestion.pipeline import runner
from partner_events.handler import ConsumerOutcome, handle_record
from partner_events.lifecycle import StageEventObserver
from partner_events.models import StageEvent
from partner_events.publisher import StdoutPublisher
from tests.partner_ingest.helpers import LEGAL_TEXT, doc_uploaded, put_object

pytestmark = pytest.mark.django_db(transaction=True)


class ProcessKilled(BaseException):
    """Not an Exception: nothing in the handler may catch it, as nothing catches SIGKILL."""


def _die_right_after_the_index_commits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first event after the commit is the held ``parsed``: nothing of the run's outcome
    reached the job row or the outbox yet."""
    milestone = StageEventObserver.milestone

    def dying(self: StageEventObserver, key: str, **kwargs: Any) -> None:
        if key == "parsed":
            raise ProcessKilled
        milestone(self, key, **kwargs)

    monkeypatch.setattr(StageEventObserver, "milestone", dying)


def _crashed_after_indexing(store_dir: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    record = doc_uploaded(put_object(store_dir, "jdih/qanun-crash.txt", LEGAL_TEXT.encode()))
    raw = json.dumps(record).encode()
    with monkeypatch.context() as patch:
        _die_right_after_the_index_commits(patch)
        with pytest.raises(ProcessKilled):
            handle_record(raw, publisher=StdoutPublisher(io.StringIO()))
    long_ago = timezone.now() - timedelta(hours=1)
    IngestionJob.objects.update(heartbeat_at=long_ago)  # the dead worker's heartbeat went stale
    return raw


def test_the_redelivery_of_a_job_that_died_after_indexing_reports_it_indexed(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = _crashed_after_indexing(store_dir, monkeypatch)
    document = Document.objects.get()
    assert document.status == DocumentStatus.INDEXED
    assert IngestionJob.objects.get().state == JobState.PROCESSING
    assert not StageEvent.objects.exclude(payload__stage="extracting").exists()

    out = io.StringIO()
    outcome = handle_record(raw, publisher=StdoutPublisher(out))

    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert outcome.outcome == ConsumerOutcome.INDEXED
    assert outcome.document_id == document.pk
    assert [e["routingKey"] for e in events] == [
        "fetched",
        "parsed",
        "chunked",
        "embedded",
        "indexed",
    ]
    last = events[-1]["value"]
    assert (last["status"], last["aiDocumentId"]) == ("done", str(document.pk))
    assert last["meta"]["chunkCount"] == Chunk.objects.filter(document=document).count() > 0
    job = IngestionJob.objects.get()
    assert (job.state, job.document_id) == (JobState.DONE, document.pk)


def test_another_job_with_the_same_bytes_is_still_skipped_after_that_crash(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = _crashed_after_indexing(store_dir, monkeypatch)
    again = json.loads(raw)
    again["jobId"] = again["documentId"]  # a new delivery of the same source and bytes

    outcome = handle_record(json.dumps(again).encode(), publisher=StdoutPublisher(io.StringIO()))

    assert outcome.outcome == ConsumerOutcome.SKIPPED
    assert outcome.document_id == Document.objects.get().pk


def test_a_failed_job_retried_after_another_job_indexed_its_row_is_skipped(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = doc_uploaded(put_object(store_dir, "jdih/qanun-gagal.txt", LEGAL_TEXT.encode()))
    raw = json.dumps(record).encode()
    with monkeypatch.context() as patch:
        patch.setattr(runner, "document_vectors", _embedding_refused)
        failed = handle_record(raw, publisher=StdoutPublisher(io.StringIO()))
    assert failed.outcome == ConsumerOutcome.ERROR
    other = {**record, "jobId": record["documentId"]}  # the same bytes under a new jobId
    indexed = handle_record(json.dumps(other).encode(), publisher=StdoutPublisher(io.StringIO()))
    assert indexed.outcome == ConsumerOutcome.INDEXED
    assert (
        IngestionJob.objects.get(partner_job_id=record["jobId"]).document_id == indexed.document_id
    )

    retried = handle_record(raw, publisher=StdoutPublisher(io.StringIO()))

    assert (retried.outcome, retried.document_id) == (ConsumerOutcome.SKIPPED, indexed.document_id)


def _embedding_refused(*_args: Any, **_kwargs: Any) -> Any:
    raise PermanentError("model menolak teks", code="embed_refused")
