"""doc.uploaded → the worker → exactly the contract's stage sequences, keyed by jobId."""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable

import httpx
import pytest

from ingestion.models import Document, IngestionJob, JobState
from partner_events.models import PublishStatus, StageEvent
from tests.harness.fixtures import KafkaTopics, S3Bucket
from tests.kafka_worker.helpers import (
    BORN_DIGITAL,
    SCANNED,
    StageReader,
    WorkerProcess,
    follows_contract_order,
    has_events,
    produce,
    put_object,
    record_bytes,
    worker_env,
)
from tests.partner_ingest.helpers import doc_uploaded, scan_pdf, schema_errors, text_pdf

pytestmark = pytest.mark.kafka

DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def docx_bytes() -> bytes:
    import docx

    document = docx.Document()
    document.add_heading("QANUN ACEH NOMOR 5 TAHUN 2026", level=1)
    document.add_paragraph("Pasal 1")
    document.add_paragraph("Pemerintah Aceh menyelenggarakan pelayanan informasi publik daerah.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_pdf_scan_and_docx_produce_the_contract_sequences_on_the_stage_topics(
    start_worker: Callable[..., WorkerProcess], unique_topics: KafkaTopics, s3_bucket: S3Bucket
) -> None:
    records = {
        "pdf": doc_uploaded(
            put_object(s3_bucket, "jdih/qanun-3.pdf", text_pdf()), "application/pdf"
        ),
        "scan": doc_uploaded(
            put_object(s3_bucket, "jdih/scan/qanun-7.pdf", scan_pdf()), "application/pdf"
        ),
        "docx": doc_uploaded(put_object(s3_bucket, "ppid/qanun-5.docx", docx_bytes()), DOCX_MIME),
    }
    worker = start_worker(worker_env(unique_topics, s3_bucket))
    reader = StageReader(unique_topics)

    produce(
        unique_topics.bootstrap,
        unique_topics.input_topic,
        [record_bytes(r) for r in records.values()],
    )
    expected = {"pdf": BORN_DIGITAL, "scan": SCANNED, "docx": BORN_DIGITAL}
    complete = [has_events(r["jobId"], len(expected[name])) for name, r in records.items()]
    reader.read(lambda ms: all(done(ms) for done in complete), 120)
    reader.settle(1.0)

    for name, record in records.items():
        events = reader.of(record["jobId"])
        assert follows_contract_order(events, expected[name]), (name, [m.wire for m in events])
        assert all(schema_errors(m.value) == [] for m in events)
        assert {m.value["jobId"] for m in events} == {record["jobId"]}
        job = IngestionJob.objects.get(partner_job_id=record["jobId"])
        assert job.state == JobState.DONE
        logged = [
            (e.payload["stage"], e.payload["status"], e.payload["progress"])
            for e in StageEvent.objects.filter(job=job).order_by("seq")
        ]
        assert logged == expected[name]
        assert set(StageEvent.objects.filter(job=job).values_list("publish_status", flat=True)) == {
            PublishStatus.PUBLISHED
        }
    assert Document.objects.count() == 3
    reader.close()

    port = int(worker.wait_for(r"metrics on port (\d+)").group(1))
    metrics = scrape_until(port, r"aceh_rag_kafka_consumer_lag\{partition=\"\d\",topic=")
    assert re.search(r'aceh_rag_kafka_records_total\{outcome="indexed"\} 3\.0', metrics)
    assert 'aceh_rag_stage_duration_seconds_count{stage="ocr"}' in metrics
    assert "aceh_rag_outbox_backlog 0.0" in metrics
    assert re.search(r"jobId=\S+ documentId=\S+ outcome=indexed", worker.log)


def scrape_until(port: int, pattern: str, timeout: float = 30.0) -> str:
    """The worker's /metrics once ``pattern`` shows up: lag is sampled periodically (10 s)."""
    deadline = time.monotonic() + timeout
    while True:
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
        if re.search(pattern, metrics) or time.monotonic() > deadline:
            assert re.search(pattern, metrics), f"{pattern} not in metrics after {timeout}s"
            return metrics
        time.sleep(0.5)
