"""The original file streams from object storage; review page images render from it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from PIL import Image

from ingestion import storage as storage_module
from tests.ui.helpers import make_document, text_pdf


@pytest.fixture
def stored_pdf(tmp_path: Path, settings: Any) -> Iterator[tuple[Any, bytes]]:
    settings.OBJECT_STORAGE_URL = (tmp_path / "objects").as_uri()
    settings.PAGE_IMAGE_CACHE_DIR = tmp_path / "page-cache"
    storage_module._cached.cache_clear()
    data = text_pdf("Qanun Aceh", pages=2)
    storage_module.get_storage().put("jdih/qanun.pdf", io.BytesIO(data))
    document = make_document(storage_key="jdih/qanun.pdf", file_name="qanun.pdf", page_count=2)
    yield document, data
    storage_module._cached.cache_clear()


@pytest.mark.django_db
def test_the_original_file_downloads_unchanged(
    reviewer_client: Client, stored_pdf: tuple[Any, bytes]
) -> None:
    document, data = stored_pdf
    response = reviewer_client.get(f"/documents/{document.pk}/download")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == data  # type: ignore[attr-defined]
    assert 'filename="qanun.pdf"' in response["Content-Disposition"]


@pytest.mark.django_db
def test_a_page_image_is_rendered_and_then_served_from_cache(
    reviewer_client: Client, stored_pdf: tuple[Any, bytes], settings: Any
) -> None:
    document, _ = stored_pdf
    first = reviewer_client.get(f"/documents/{document.pk}/pages/2.png")
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(first.content)).size[0] > 100
    assert len(list(Path(settings.PAGE_IMAGE_CACHE_DIR).glob("*.png"))) == 1
    cached = reviewer_client.get(f"/documents/{document.pk}/pages/2.png")
    assert cached.content == first.content
    again = reviewer_client.get(
        f"/documents/{document.pk}/pages/2.png", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert again.status_code == 304


@pytest.mark.django_db
def test_a_rendered_page_is_kept_in_object_storage_and_never_rendered_again(
    reviewer_client: Client,
    stored_pdf: tuple[Any, bytes],
    settings: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ingestion.views import review as review_views

    document, _ = stored_pdf
    thumb = reviewer_client.get(f"/documents/{document.pk}/pages/1.png?ukuran=kecil")
    full = reviewer_client.get(f"/documents/{document.pk}/pages/1.png")
    assert thumb.status_code == full.status_code == 200
    assert (
        Image.open(io.BytesIO(thumb.content)).size[0] < Image.open(io.BytesIO(full.content)).size[0]
    )
    stored = sorted((tmp_path / "objects" / "derived" / "page-images").glob("*.png"))
    assert len(stored) == 2

    # Another web node: no local copy, and rendering would fail; the object store answers.
    settings.PAGE_IMAGE_CACHE_DIR = tmp_path / "other-node-cache"

    def no_render(*_args: Any) -> bytes:
        raise AssertionError("the page was rendered again")

    monkeypatch.setattr(review_views, "_render_page", no_render)
    again = reviewer_client.get(f"/documents/{document.pk}/pages/1.png?ukuran=kecil")
    assert again.status_code == 200 and again.content == thumb.content
    assert (
        reviewer_client.get(f"/documents/{document.pk}/pages/1.png?ukuran=raksasa").status_code
        == 404
    )


@pytest.mark.django_db
def test_a_page_outside_the_document_is_not_found(
    reviewer_client: Client, stored_pdf: tuple[Any, bytes]
) -> None:
    document, _ = stored_pdf
    assert reviewer_client.get(f"/documents/{document.pk}/pages/9.png").status_code == 404
