"""'Setujui semua di atas X': the confirmation names the count; each approval is audited."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from ingestion.models import Chunk, ReviewAction, ReviewState
from tests.ui.helpers import make_chunks, make_document

pytestmark = pytest.mark.django_db

CONFIDENCES = [0.31, 0.47, 0.52, 0.58]


def _parked_document() -> Any:
    document = make_document(status="needs_review")
    chunks = make_chunks(document, len(CONFIDENCES), parked=True)
    for chunk, confidence in zip(chunks, CONFIDENCES, strict=True):
        chunk.ocr_confidence = confidence
    Chunk.objects.bulk_update(chunks, ["ocr_confidence"])
    return document


def test_the_confirmation_names_how_many_chunks_are_above(reviewer_client: Client) -> None:
    document = _parked_document()
    html = reviewer_client.get(
        f"/review/{document.pk}/approve-above?above=0,5", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Setujui 2 potongan dengan keyakinan OCR di atas 0,50?" in html
    assert "Ya, setujui 2 potongan" in html
    assert Chunk.objects.filter(review_state=ReviewState.PENDING).count() == 4  # nothing yet


def test_a_bad_confidence_is_explained(reviewer_client: Client) -> None:
    document = _parked_document()
    html = reviewer_client.get(f"/review/{document.pk}/approve-above?above=2").content.decode()
    assert "antara 0 dan 1" in html


def test_approving_above_settles_only_those_chunks_and_audits_each(
    reviewer_client: Client, reviewer_user: Any
) -> None:
    document = _parked_document()
    response = reviewer_client.post(
        f"/review/{document.pk}/approve-above", {"above": "0.5"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    assert response["HX-Redirect"] == f"/review/{document.pk}/"
    states = dict(Chunk.objects.filter(document=document).values_list("ocr_confidence", "indexed"))
    assert states == {0.31: False, 0.47: False, 0.52: True, 0.58: True}
    actions = ReviewAction.objects.filter(document=document, action=ReviewAction.Action.APPROVE)
    approved = [a.chunk.ocr_confidence for a in actions if a.chunk is not None]
    assert sorted(c or 0.0 for c in approved) == [0.52, 0.58]
    assert {a.user_id for a in actions} == {reviewer_user.pk}
    page = reviewer_client.get(f"/review/{document.pk}/").content.decode()
    assert re.search(r"2 potongan dengan keyakinan OCR di atas 0,50 disetujui", page)
    assert "Menunggu: <b>2</b>" in page
