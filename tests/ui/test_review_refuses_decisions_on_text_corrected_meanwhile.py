"""Two reviewers on one chunk: a decision on text someone else corrected meanwhile is refused."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from ingestion.management.commands.ensure_admin import REVIEWER_GROUP
from ingestion.models import Chunk, DocumentStatus, ReviewAction, ReviewState
from tests.ui.helpers import client_for, make_chunks, make_document, make_user

pytestmark = pytest.mark.django_db


def _seen_in_form(client: Client, document: Any, chunk: Chunk) -> str:
    body = client.get(f"/review/{document.pk}/").content.decode()
    form = body[body.index(f'id="chunk-{chunk.pk}"') :]
    match = re.search(r'name="seen" value="([0-9a-f]+)"', form)
    assert match, "the review form carries the version of the text it shows"
    return match.group(1)


@pytest.mark.parametrize("action", ["approve", "reject", "save"])
def test_a_stale_form_cannot_overwrite_or_decide_on_a_newer_correction(
    reviewer_client: Client, action: str
) -> None:
    document = make_document(status=DocumentStatus.NEEDS_REVIEW)
    chunk = make_chunks(document, 2, parked=True)[0]
    seen = _seen_in_form(reviewer_client, document, chunk)
    other = client_for(make_user("peninjau-lain", group=REVIEWER_GROUP))
    saved = other.post(f"/review/chunks/{chunk.pk}/save", {"text": "Koreksi rekan"})
    assert saved.status_code == 302

    response = reviewer_client.post(
        f"/review/chunks/{chunk.pk}/{action}",
        {"text": "Teks lama yang diubah", "seen": seen},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert "dikoreksi peninjau lain" in body
    assert "Koreksi rekan" in body  # the refused reviewer now sees the newer text
    fresh = Chunk.objects.get(pk=chunk.pk)
    assert fresh.text == "Koreksi rekan"
    assert fresh.review_state == ReviewState.PENDING and not fresh.indexed
    assert list(ReviewAction.objects.values_list("action", flat=True)) == ["edit"]


def test_a_form_showing_the_current_text_is_accepted(reviewer_client: Client) -> None:
    document = make_document(status=DocumentStatus.NEEDS_REVIEW)
    chunk = make_chunks(document, 2, parked=True)[0]
    seen = _seen_in_form(reviewer_client, document, chunk)
    reviewer_client.post(f"/review/chunks/{chunk.pk}/approve", {"text": "Teks benar", "seen": seen})
    fresh = Chunk.objects.get(pk=chunk.pk)
    assert fresh.review_state == ReviewState.APPROVED and fresh.text == "Teks benar"
