"""Review actions: correct, approve (embedded and indexed), reject, and the document settles."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from ingestion import review
from ingestion.models import (
    Chunk,
    DocumentStatus,
    JobOrigin,
    JobState,
    ReviewAction,
    ReviewState,
)
from tests.ui.helpers import FixedEmbedder, make_chunks, make_document, make_job


@pytest.fixture
def embedder() -> FixedEmbedder:
    return FixedEmbedder(settings.EMBEDDING_DIM)


def _parked_document(n: int = 2) -> tuple[Any, list[Chunk]]:
    document = make_document(status=DocumentStatus.NEEDS_REVIEW)
    return document, make_chunks(document, n, parked=True)


@pytest.mark.django_db
def test_approving_a_corrected_chunk_indexes_the_corrected_text(
    reviewer_user: Any, embedder: FixedEmbedder
) -> None:
    _document, chunks = _parked_document()
    original = chunks[0].text
    review.approve_chunk(
        chunks[0].pk, user=reviewer_user, text="Pasal 1 teks yang benar", embedder=embedder
    )
    chunk = Chunk.objects.get(pk=chunks[0].pk)
    assert chunk.indexed and chunk.review_state == ReviewState.APPROVED
    assert chunk.text == "Pasal 1 teks yang benar"
    assert chunk.embedding is not None and chunk.embedding_model == "uji-tetap"
    # Embedded the way the pipeline embeds: heading path, then text.
    assert embedder.calls == [[f"{chunk.heading_path}\nPasal 1 teks yang benar"]]
    actions = list(ReviewAction.objects.filter(chunk=chunk).order_by("created_at", "pk"))
    assert [a.action for a in actions] == ["edit", "approve"]
    assert actions[0].text_before == original and actions[0].text_after == chunk.text
    assert all(a.user_id == reviewer_user.pk for a in actions)


@pytest.mark.django_db
def test_a_rejected_chunk_is_kept_but_never_indexed(reviewer_user: Any) -> None:
    _, chunks = _parked_document()
    review.reject_chunk(chunks[0].pk, user=reviewer_user)
    chunk = Chunk.objects.get(pk=chunks[0].pk)
    assert not chunk.indexed and chunk.review_state == ReviewState.REJECTED
    assert ReviewAction.objects.filter(chunk=chunk, action="reject").count() == 1


@pytest.mark.django_db
def test_the_document_becomes_indexed_when_no_pending_chunk_is_left(
    reviewer_user: Any, embedder: FixedEmbedder
) -> None:
    document, chunks = _parked_document(2)
    job = make_job(document, state=JobState.NEEDS_REVIEW)
    first = review.approve_chunk(chunks[0].pk, user=reviewer_user, embedder=embedder)
    assert not first.became_indexed and first.pending_left == 1
    document.refresh_from_db()
    assert document.status == DocumentStatus.NEEDS_REVIEW
    last = review.reject_chunk(chunks[1].pk, user=reviewer_user)
    assert last.became_indexed
    document.refresh_from_db()
    job.refresh_from_db()
    assert document.status == DocumentStatus.INDEXED and document.indexed_at is not None
    assert job.state == JobState.DONE


@pytest.mark.django_db
def test_approve_all_indexes_every_pending_chunk_in_one_go(
    reviewer_user: Any, embedder: FixedEmbedder
) -> None:
    document, chunks = _parked_document(5)
    review.reject_chunk(chunks[0].pk, user=reviewer_user)
    outcome = review.approve_all(document.pk, user=reviewer_user, embedder=embedder)
    assert outcome.became_indexed
    states = dict(Chunk.objects.filter(document=document).values_list("ordinal", "review_state"))
    assert states == {0: "rejected", 1: "approved", 2: "approved", 3: "approved", 4: "approved"}
    assert Chunk.objects.filter(document=document, indexed=True).count() == 4
    assert ReviewAction.objects.filter(document=document, action="approve").count() == 4


@pytest.mark.django_db
def test_a_chunk_cannot_be_decided_twice(reviewer_user: Any, embedder: FixedEmbedder) -> None:
    _, chunks = _parked_document()
    review.reject_chunk(chunks[0].pk, user=reviewer_user)
    with pytest.raises(review.ReviewError):
        review.approve_chunk(chunks[0].pk, user=reviewer_user, embedder=embedder)


@pytest.mark.django_db
def test_empty_corrections_are_refused(reviewer_user: Any) -> None:
    _, chunks = _parked_document()
    with pytest.raises(review.ReviewError):
        review.edit_chunk(chunks[0].pk, user=reviewer_user, text="   ")


@pytest.mark.django_db
def test_a_kafka_document_reviewed_to_the_end_records_its_terminal_status_again(
    reviewer_user: Any, embedder: FixedEmbedder
) -> None:
    outbox = pytest.importorskip("partner_events.outbox")
    assert hasattr(outbox, "record_terminal_after_review")
    document, chunks = _parked_document(1)
    job = make_job(
        document,
        origin=JobOrigin.KAFKA,
        state=JobState.NEEDS_REVIEW,
        partner_job_id="7d9c2b1e-4f3a-4c2d-9e8f-1a2b3c4d5e6f",
    )
    before = job.stage_events.count()
    review.approve_chunk(chunks[0].pk, user=reviewer_user, embedder=embedder)
    events = list(job.stage_events.order_by("seq"))
    assert len(events) > before
    assert (events[-1].payload["stage"], events[-1].payload["status"]) == ("indexed", "done")


@pytest.mark.django_db
def test_the_review_page_saves_a_correction_through_htmx(reviewer_client: Client) -> None:
    _document, chunks = _parked_document()
    response = reviewer_client.post(
        f"/review/chunks/{chunks[0].pk}/save", {"text": "Teks dikoreksi"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="chunk-{chunks[0].pk}"' in body and "Teks dikoreksi" in body
    assert 'hx-swap-oob="true"' in body
    assert Chunk.objects.get(pk=chunks[0].pk).text == "Teks dikoreksi"


@pytest.mark.django_db
def test_the_document_page_shows_the_review_history(reviewer_client: Client) -> None:
    document, chunks = _parked_document()
    reviewer_client.post(f"/review/chunks/{chunks[0].pk}/save", {"text": "Teks sesudah koreksi"})
    reviewer_client.post(f"/review/chunks/{chunks[1].pk}/reject")
    body = reviewer_client.get(f"/documents/{document.pk}/").content.decode()
    assert "Riwayat tinjauan" in body
    assert "Koreksi teks" in body and "Tolak" in body and "Teks sesudah koreksi" in body
    assert "peninjau-uji" in body
