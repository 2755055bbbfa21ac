"""A born-digital document: fetched 10, parsed 25, chunked 65, embedded 85, indexed/done."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.models import Chunk, Document, IngestionJob, JobState
from partner_events.models import StageEvent
from tests.partner_ingest.helpers import (
    LEGAL_TEXT,
    doc_uploaded,
    ingest_event,
    put_object,
    text_pdf,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_text_file_emits_the_born_digital_sequence_in_order(store_dir: Path) -> None:
    key = put_object(store_dir, "jdih/2026/qanun-3.txt", LEGAL_TEXT.encode())
    record = doc_uploaded(key)

    run = ingest_event(record)

    assert run.code == 0, run.stderr
    assert run.wire == [
        ("fetched", "extracting", "done", 10, False),
        ("parsed", "extracting", "done", 25, True),
        ("chunked", "chunking", "done", 65, True),
        ("embedded", "embedding", "done", 85, True),
        ("indexed", "indexed", "done", 100, True),
    ]
    document = Document.objects.get()
    assert {v["aiDocumentId"] for v in run.values[1:]} == {str(document.pk)}
    assert {(v["jobId"], v["registryId"]) for v in run.values} == {
        (record["jobId"], record["documentId"])
    }
    chunks = Chunk.objects.filter(document=document).count()
    assert run.values[2]["meta"] == {"chunkCount": chunks}
    assert run.values[4]["meta"] == {"chunkCount": chunks}
    assert run.values[0]["meta"] is None


def test_a_pdf_is_routed_to_the_default_topics_with_the_job_id_as_key(store_dir: Path) -> None:
    key = put_object(store_dir, "jdih/2026/perda-12", text_pdf())
    record = doc_uploaded(key, "application/pdf", format="pdf")

    run = ingest_event(record)

    assert run.code == 0, run.stderr
    assert [(line["routingKey"], line["topic"]) for line in run.lines] == [
        ("fetched", "doc.extracted"),
        ("parsed", "doc.extracted"),
        ("chunked", "doc.chunked"),
        ("embedded", "doc.embedded"),
        ("indexed", "doc.indexed"),
    ]
    assert {line["key"] for line in run.lines} == {record["jobId"]}


def test_the_job_row_and_the_outbox_hold_the_outcome(store_dir: Path) -> None:
    key = put_object(store_dir, "jdih/qanun.txt", LEGAL_TEXT.encode())
    record = doc_uploaded(key, sourceMetadata={"tahun": "2026"})

    run = ingest_event(record)

    job = IngestionJob.objects.get(partner_job_id=record["jobId"])
    assert job.state == JobState.DONE
    assert job.progress == 100
    assert job.payload["storageKey"] == key
    assert str(job.document_id) == run.values[-1]["aiDocumentId"]
    logged = list(StageEvent.objects.filter(job=job).order_by("seq"))
    assert [e.seq for e in logged] == [1, 2, 3, 4, 5]
    assert [e.payload for e in logged] == run.values
    assert {e.publish_status for e in logged} == {"published"}
    assert {e.record_key for e in logged} == {record["jobId"]}
