"""When the embedding service is down, approving tells the reviewer why and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ingestion.models import Chunk, DocumentStatus, ReviewAction, ReviewState
from tests.ui.helpers import make_chunks, make_document

pytestmark = pytest.mark.django_db

DOWN = "Gateway model tidak dapat dihubungi"


@pytest.fixture(autouse=True)
def _gateway_down(settings: Any) -> None:
    """A configured gateway that nothing answers on (port 9), not retried."""
    settings.MODEL_GATEWAY_URL = "http://127.0.0.1:9"
    settings.GATEWAY_MAX_RETRIES = 0


def _parked() -> tuple[Any, list[Chunk]]:
    document = make_document(status=DocumentStatus.NEEDS_REVIEW)
    return document, make_chunks(document, 2, parked=True)


def _untouched(chunks: list[Chunk]) -> bool:
    fresh = Chunk.objects.filter(pk__in=[c.pk for c in chunks])
    return all(c.review_state == ReviewState.PENDING and not c.indexed for c in fresh)


def test_approving_one_chunk_shows_the_reason_in_the_htmx_result(reviewer_client: Client) -> None:
    _document, chunks = _parked()
    response = reviewer_client.post(
        f"/review/chunks/{chunks[0].pk}/approve", {"text": "Teks benar"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert DOWN in response.content.decode()
    assert _untouched(chunks)
    assert not ReviewAction.objects.exists()


def test_approving_all_redirects_back_with_the_reason(reviewer_client: Client) -> None:
    document, chunks = _parked()
    response = reviewer_client.post(f"/review/{document.pk}/approve-all", follow=True)
    assert response.status_code == 200
    assert DOWN in response.content.decode()
    assert _untouched(chunks)
    document.refresh_from_db()
    assert document.status == DocumentStatus.NEEDS_REVIEW
