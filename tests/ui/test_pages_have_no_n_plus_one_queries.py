"""List, detail and review pages cost a fixed number of queries however many rows they show."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ingestion.models import DocumentStatus, JobOrigin, JobState, ReviewAction
from partner_events.models import StageEvent
from tests.ui.helpers import make_chunks, make_document, make_job

MAX_LIST = 14
MAX_DETAIL = 16  # + the other copies of its regulation (its current edition, then the copies)
MAX_REVIEW = 14


def _queries(action: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = action()
    assert response.status_code == 200
    return len(captured)


def _populate(n: int) -> None:
    for i in range(n):
        status = [DocumentStatus.INDEXED, DocumentStatus.QUEUED, DocumentStatus.FAILED][i % 3]
        document = make_document(status=status, failure_reason="PDF rusak / tidak dapat dibaca")
        make_chunks(document, 3)
        state = {DocumentStatus.QUEUED: JobState.QUEUED, DocumentStatus.FAILED: JobState.FAILED}
        make_job(document, state=state.get(status, JobState.DONE))
    for _ in range(n // 5):
        make_job(None, state=JobState.QUEUED)


def _rich_document(chunks: int, admin_user: Any) -> Any:
    document = make_document(status=DocumentStatus.NEEDS_REVIEW)
    parked = make_chunks(document, chunks, parked=True)
    for _ in range(3):
        job = make_job(document, origin=JobOrigin.KAFKA, state=JobState.NEEDS_REVIEW)
        StageEvent.objects.bulk_create(
            StageEvent(job=job, seq=s, routing_key="parsed", payload={"stage": "extracting"})
            for s in range(6)
        )
    ReviewAction.objects.bulk_create(
        ReviewAction(document=document, chunk=c, user=admin_user, action="edit", text_after="x")
        for c in parked
    )
    return document


@pytest.mark.django_db
def test_the_document_list_does_not_query_per_row(
    admin_client: Client, django_assert_max_num_queries: Any
) -> None:
    _populate(6)
    small = _queries(lambda: admin_client.get("/documents/"))
    _populate(60)
    with django_assert_max_num_queries(MAX_LIST):
        large = _queries(lambda: admin_client.get("/documents/"))
    assert large == small


@pytest.mark.django_db
def test_the_document_detail_does_not_query_per_chunk_event_or_action(
    admin_client: Client, admin_user: Any
) -> None:
    small = _rich_document(2, admin_user)
    large = _rich_document(40, admin_user)
    few = _queries(lambda: admin_client.get(f"/documents/{small.pk}/"))
    many = _queries(lambda: admin_client.get(f"/documents/{large.pk}/"))
    assert many == few
    assert many <= MAX_DETAIL


@pytest.mark.django_db
def test_the_review_page_does_not_query_per_chunk(admin_client: Client, admin_user: Any) -> None:
    small = _rich_document(2, admin_user)
    large = _rich_document(40, admin_user)
    few = _queries(lambda: admin_client.get(f"/review/{small.pk}/"))
    many = _queries(lambda: admin_client.get(f"/review/{large.pk}/"))
    assert many == few
    assert many <= MAX_REVIEW


@pytest.mark.django_db
def test_the_review_queue_and_jobs_list_do_not_query_per_row(
    admin_client: Client, admin_user: Any
) -> None:
    _rich_document(1, admin_user)
    queue_few = _queries(lambda: admin_client.get("/review/"))
    jobs_few = _queries(lambda: admin_client.get("/jobs/"))
    for _ in range(8):
        _rich_document(3, admin_user)
    assert _queries(lambda: admin_client.get("/review/")) == queue_few
    assert _queries(lambda: admin_client.get("/jobs/")) == jobs_few


@pytest.mark.django_db
def test_the_dashboard_costs_a_fixed_number_of_queries(admin_client: Client) -> None:
    from django.core.cache import cache

    _populate(3)
    cache.clear()  # measure the cold path: the 30-day chart's cache empty
    few = _queries(lambda: admin_client.get("/"))
    _populate(30)
    cache.clear()
    assert _queries(lambda: admin_client.get("/")) == few
    assert _queries(lambda: admin_client.get("/")) == few - 1  # warm: earlier hours cached
