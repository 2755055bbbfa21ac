"""Roles are checked by the views themselves: a hidden button is never the only barrier."""

from __future__ import annotations

import pytest
from django.test import Client

from ingestion.models import DocumentStatus
from tests.ui.helpers import client_for, make_document, make_user

ADMIN_ONLY_GET = ["/upload/", "/jobs/"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ADMIN_ONLY_GET)
def test_a_reviewer_cannot_reach_admin_pages(reviewer_client: Client, url: str) -> None:
    response = reviewer_client.get(url)
    assert response.status_code == 403
    assert "Akses ditolak" in response.content.decode()


@pytest.mark.django_db
def test_a_reviewer_cannot_archive_or_reprocess(reviewer_client: Client) -> None:
    document = make_document(status=DocumentStatus.INDEXED)
    assert reviewer_client.post(f"/documents/{document.pk}/archive").status_code == 403
    assert reviewer_client.post(f"/documents/{document.pk}/reprocess").status_code == 403
    document.refresh_from_db()
    assert document.status == DocumentStatus.INDEXED


@pytest.mark.django_db
def test_a_reviewer_reaches_the_review_queue(reviewer_client: Client) -> None:
    assert reviewer_client.get("/review/").status_code == 200


@pytest.mark.django_db
def test_a_user_without_a_role_cannot_review() -> None:
    client = client_for(make_user("tanpa-peran"))
    assert client.get("/review/").status_code == 403
    assert client.get("/documents/").status_code == 200


@pytest.mark.django_db
def test_a_superuser_counts_as_admin() -> None:
    client = client_for(make_user("super", superuser=True))
    assert client.get("/upload/").status_code == 200
    assert client.get("/review/").status_code == 200


@pytest.mark.django_db
def test_the_navigation_hides_upload_from_a_reviewer(reviewer_client: Client) -> None:
    body = reviewer_client.get("/").content.decode()
    assert 'href="/review/"' in body
    assert 'href="/upload/"' not in body


@pytest.mark.django_db
def test_an_admin_can_archive_an_indexed_document(admin_client: Client) -> None:
    document = make_document(status=DocumentStatus.INDEXED)
    response = admin_client.post(f"/documents/{document.pk}/archive")
    assert response.status_code == 302
    document.refresh_from_db()
    assert document.status == DocumentStatus.ARCHIVED
