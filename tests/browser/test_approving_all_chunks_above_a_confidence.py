"""'Setujui semua di atas X' in Chromium: a confirmation naming the count, then the approval."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ingestion.management.commands.ensure_admin import REVIEWER_GROUP
from ingestion.models import Chunk, ReviewAction
from tests.browser.helpers import log_in, parked_document, screenshot
from tests.ui.helpers import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_approving_every_chunk_above_a_chosen_confidence(
    page: Any, live_server: Any, object_store: Path
) -> None:
    make_user("peninjau", group=REVIEWER_GROUP)
    document = parked_document(object_store, [0.31, 0.47, 0.52, 0.58, 0.55])
    log_in(page, live_server.url, "peninjau", PASSWORD)
    page.goto(f"{live_server.url}/review/{document.pk}/")
    page.fill("#approve-above-value", "0.5")
    page.click("#approve-above-check")
    confirm = page.locator("[data-testid=approve-above-confirm]")
    confirm.wait_for()
    assert "Setujui 3 potongan dengan keyakinan OCR di atas 0,50?" in confirm.inner_text()
    page.wait_for_function("() => document.activeElement.id === 'approve-above-yes'")
    screenshot(page, "review-approve-above-confirm")
    assert Chunk.objects.filter(document=document, indexed=True).count() == 0

    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "3 potongan dengan keyakinan OCR di atas 0,50 disetujui" in page.content()
    parked = Chunk.objects.filter(document=document, indexed=False)
    left = sorted(c or 0.0 for c in parked.values_list("ocr_confidence", flat=True))
    assert left == [0.31, 0.47]
    assert page.locator("article.review-chunk").count() == 2
    approvals = ReviewAction.objects.filter(document=document, action="approve").count()
    assert approvals == 3
    screenshot(page, "review-approve-above-done")
