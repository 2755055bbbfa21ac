"""OCR as a gateway job: queued vs processing clocks, JOB_UNKNOWN, queue state for people."""

from __future__ import annotations

import time

import pytest

from aceh_rag.platform.context import CallContext, Surface
from aceh_rag.platform.gateway.errors import GatewayTimeout
from aceh_rag.platform.gateway.jobs import JobStatus, QueueState
from ingestion.queue_text import gateway_queue_text
from tests.gateway_server import (
    FakeGateway,
    Reply,
    decode_pages,
)
from tests.platform.helpers import client_for

CTX = CallContext(surface=Surface.INGESTION, job_id="job-77", doc_hash="aa" * 32, user_id="3")
PAGES = [(1, b"\x89PNG page one"), (2, b"\x89PNG page two")]


def test_a_job_goes_from_queued_through_processing_to_its_result_pages(
    gateway_server: FakeGateway,
) -> None:
    with client_for(gateway_server) as client:
        pages = client.ocr(PAGES, ctx=CTX)

    submit = gateway_server.requests_to("POST", "/v1/jobs")
    polls = gateway_server.requests_to("GET", "/v1/jobs/job-1")
    assert [p["page"] for p in pages] == [1, 2]
    assert pages[0]["lines"] == [{"text": "teks halaman 1", "confidence": 0.97}]
    assert len(submit) == 1 and len(polls) == 3
    body = submit[0].json()
    assert body["model"] == "paddleocr" and body["operation"] == "ocr"
    assert [(p["page"], p["mime"]) for p in body["input"]["pages"]] == [
        (1, "image/png"),
        (2, "image/png"),
    ]
    assert decode_pages(submit[0]) == [data for _, data in PAGES]
    assert all(r.header("X-Job-Id") == "job-77" for r in submit + polls)
    assert all(r.header("X-Doc-Hash") == "aa" * 32 for r in submit + polls)


def test_the_queue_state_reaches_the_callback_as_text_a_person_can_read(
    gateway_server: FakeGateway,
) -> None:
    seen: list[QueueState] = []

    with client_for(gateway_server) as client:
        client.ocr(PAGES, ctx=CTX, on_queue=seen.append)

    assert [s.status for s in seen] == [JobStatus.QUEUED, JobStatus.QUEUED, JobStatus.PROCESSING]
    assert [gateway_queue_text(s) for s in seen] == [
        "Dalam antrean GPU — posisi 3 (±2 menit)",
        "Dalam antrean GPU — posisi 1 (±1 menit)",
        "Diproses GPU — recognize (50%)",
    ]
    assert seen[0].job_id == "job-1"


def test_a_forgotten_job_is_resubmitted_with_the_same_idempotency_key(
    gateway_server: FakeGateway,
) -> None:
    gateway_server.lose_jobs_at_poll = 2
    seen: list[QueueState] = []

    with client_for(gateway_server) as client:
        pages = client.ocr(PAGES, ctx=CTX, on_queue=seen.append)

    submits = gateway_server.requests_to("POST", "/v1/jobs")
    assert len(pages) == 2
    assert len(submits) == 2
    assert submits[0].header("Idempotency-Key") == submits[1].header("Idempotency-Key")
    assert submits[0].body == submits[1].body
    assert gateway_server.requests_to("GET", "/v1/jobs/job-2")
    assert JobStatus.RESUBMITTED in [s.status for s in seen]


def test_a_queue_slower_than_the_gpu_wait_budget_gives_up_as_transient(
    gateway_server: FakeGateway,
) -> None:
    gateway_server.job_plan = [{"status": "queued", "queue_position": 9, "eta_ms": 600_000}]

    started = time.monotonic()
    with client_for(gateway_server, queue_wait_ms=1500, poll_interval_s=0.2) as client:
        with pytest.raises(GatewayTimeout) as caught:
            client.ocr(PAGES, ctx=CTX)

    elapsed = time.monotonic() - started
    assert 1.5 <= elapsed < 4.0  # bounded by the budget (slack for a loaded CI machine)
    assert caught.value.code == "GPU_QUEUE_TIMEOUT"
    assert caught.value.permanent is False
    assert "antrean GPU" in caught.value.reason


def test_time_in_the_queue_does_not_count_against_the_processing_timeout(
    gateway_server: FakeGateway,
) -> None:
    queued = {"status": "queued", "queue_position": 1, "eta_ms": 1000}
    gateway_server.job_plan = [queued] * 12 + [
        {"status": "processing", "stage": "recognize", "progress": 0.9},
        {"status": "completed"},
    ]

    with client_for(
        gateway_server, ocr_processing_timeout_s=0.3, poll_interval_s=0.1, queue_wait_ms=5000
    ) as client:
        pages = client.ocr(PAGES, ctx=CTX)

    polls = gateway_server.requests_to("GET", "/v1/jobs/*")
    assert len(pages) == 2
    assert polls[-1].at - polls[0].at > 0.3 * 3


def test_processing_past_its_timeout_gives_up_as_transient(gateway_server: FakeGateway) -> None:
    gateway_server.job_plan = [{"status": "processing", "stage": "recognize", "progress": 0.1}]

    with client_for(gateway_server, ocr_processing_timeout_s=0.5, poll_interval_s=0.1) as client:
        with pytest.raises(GatewayTimeout) as caught:
            client.ocr(PAGES, ctx=CTX)

    assert caught.value.code == "OCR_PROCESSING_TIMEOUT"


def test_backpressure_on_submit_is_shown_with_the_queue_depth(
    gateway_server: FakeGateway,
) -> None:
    busy = Reply(429, headers={"Retry-After": "0.3", "X-Queue-Depth": "21"})
    gateway_server.script("POST", "/v1/jobs", busy)
    seen: list[QueueState] = []

    with client_for(gateway_server) as client:
        client.ocr(PAGES, ctx=CTX, on_queue=seen.append)

    assert seen[0].status is JobStatus.BACKPRESSURE
    assert seen[0].queue_depth == 21
    assert seen[0].retry_after_s is not None and seen[0].retry_after_s >= 0.3


def test_a_broken_callback_does_not_fail_the_ocr(gateway_server: FakeGateway) -> None:
    def explode(state: QueueState) -> None:
        raise RuntimeError("database is away")

    with client_for(gateway_server) as client:
        pages = client.ocr(PAGES, ctx=CTX, on_queue=explode)

    assert len(pages) == 2
