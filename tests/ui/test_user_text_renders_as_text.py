"""Titles, metadata and OCR text with markup are shown as text, never executed."""

from __future__ import annotations

import pytest
from django.test import Client

from ingestion.models import DocumentStatus
from tests.ui.helpers import make_chunks, make_document, make_job

EVIL = "<script>alert('x')</script>"


def _hostile_document() -> object:
    document = make_document(
        title=f"Qanun {EVIL}",
        status=DocumentStatus.NEEDS_REVIEW,
        title_labels=EVIL,
        metadata={
            "source_key": "evil",
            "source_version": "1",
            "source": {"judul": EVIL, "url": "javascript:alert(1)", "pdf_url": "https://x.test/a"},
        },
    )
    chunks = make_chunks(document, 2, parked=True)
    chunks[0].text = f"Teks OCR {EVIL}"
    chunks[0].heading_path = EVIL
    chunks[0].save()
    make_job(document, state="failed", error=f"Gagal {EVIL}")
    return document


def _assert_escaped(body: str) -> None:
    assert EVIL not in body
    assert "&lt;script&gt;" in body


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/documents/{pk}/", "/review/{pk}/", "/documents/", "/review/"])
def test_markup_in_document_fields_is_escaped(admin_client: Client, path: str) -> None:
    document = _hostile_document()
    body = admin_client.get(path.format(pk=document.pk)).content.decode()  # type: ignore[attr-defined]
    _assert_escaped(body)


@pytest.mark.django_db
def test_a_javascript_url_in_metadata_is_not_a_link(admin_client: Client) -> None:
    document = _hostile_document()
    body = admin_client.get(f"/documents/{document.pk}/").content.decode()  # type: ignore[attr-defined]
    assert 'href="javascript:' not in body
    assert 'href="https://x.test/a"' in body


@pytest.mark.django_db
def test_a_failure_reason_with_markup_is_escaped_on_the_dashboard(admin_client: Client) -> None:
    _hostile_document()
    _assert_escaped(admin_client.get("/").content.decode())
