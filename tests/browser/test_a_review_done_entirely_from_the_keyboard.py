"""A reviewer works a document with the keyboard alone: j/k, a, r, e, Ctrl+Enter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ingestion.management.commands.ensure_admin import REVIEWER_GROUP
from ingestion.models import Chunk, Document, DocumentStatus, ReviewAction
from tests.browser.helpers import log_in, parked_document, screenshot
from tests.ui.helpers import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CORRECTED = "Pasal 1 Arsip daerah dikelola secara tertib oleh Dinas Kearsipan Aceh."


def _focused(page: Any) -> str:
    return str(page.evaluate("() => document.activeElement && document.activeElement.id"))


def _wait_state(page: Any, chunk: Chunk, state: str) -> None:
    page.wait_for_selector(f"#chunk-{chunk.pk}[data-state='{state}']", timeout=120_000)


def test_a_review_done_entirely_from_the_keyboard(
    page: Any, live_server: Any, object_store: Path
) -> None:
    make_user("peninjau", group=REVIEWER_GROUP)
    document = parked_document(object_store, [0.41, 0.44, 0.38, 0.52])
    first, second, third, fourth = Chunk.objects.filter(document=document).order_by("ordinal")
    log_in(page, live_server.url, "peninjau", PASSWORD)
    page.goto(f"{live_server.url}/review/{document.pk}/")
    help_line = page.locator("#review-keys").inner_text()
    for key in ("j", "k", "a", "r", "e", "Ctrl", "Enter"):
        assert key in help_line
    assert _focused(page) == f"chunk-{first.pk}"  # the keys work at once
    screenshot(page, "review-keyboard-start")

    page.keyboard.press("a")
    _wait_state(page, first, "approved")
    page.wait_for_function(f"() => document.activeElement.id === 'chunk-{second.pk}'")

    page.keyboard.press("e")
    assert _focused(page) == f"text-{second.pk}"
    page.keyboard.press("Control+A")
    page.keyboard.type(CORRECTED)
    page.keyboard.press("Control+Enter")
    page.wait_for_function(
        f"() => document.activeElement.id === 'chunk-{second.pk}'"
        f" && document.querySelector('#text-{second.pk}').value.startsWith('Pasal 1 Arsip')"
    )
    page.keyboard.press("a")
    _wait_state(page, second, "approved")
    page.wait_for_function(f"() => document.activeElement.id === 'chunk-{third.pk}'")

    page.keyboard.press("k")  # back to the approved one, then forward again
    assert _focused(page) == f"chunk-{second.pk}"
    page.keyboard.press("j")
    assert _focused(page) == f"chunk-{third.pk}"
    page.keyboard.press("r")
    _wait_state(page, third, "rejected")
    page.wait_for_function(f"() => document.activeElement.id === 'chunk-{fourth.pk}'")
    screenshot(page, "review-keyboard-middle")

    page.keyboard.press("a")
    _wait_state(page, fourth, "approved")
    page.wait_for_selector("#review-status.done")
    assert _focused(page) == "review-status"

    document.refresh_from_db()
    assert document.status == DocumentStatus.INDEXED
    second.refresh_from_db()
    assert second.text == CORRECTED and second.indexed
    audit = list(
        ReviewAction.objects.filter(document=document)
        .order_by("created_at", "id")
        .values_list("chunk_id", "action")
    )
    assert audit == [
        (first.pk, "approve"),
        (second.pk, "edit"),
        (second.pk, "approve"),
        (third.pk, "reject"),
        (fourth.pk, "approve"),
    ]
    assert Document.objects.get(pk=document.pk).status == DocumentStatus.INDEXED
