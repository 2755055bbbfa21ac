"""Every admin page sends an anonymous visitor to the login page."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

PAGES = [
    "/",
    "/upload/",
    "/documents/",
    f"/documents/{uuid.uuid4()}/",
    f"/documents/{uuid.uuid4()}/download",
    f"/documents/{uuid.uuid4()}/pages/1.png",
    "/review/",
    f"/review/{uuid.uuid4()}/",
    "/jobs/",
    f"/jobs/{uuid.uuid4()}/",
    "/search/?q=qanun",
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_an_anonymous_visitor_is_redirected_to_login(url: str) -> None:
    response = Client().get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=")


@pytest.mark.django_db
def test_the_login_page_itself_is_in_indonesian() -> None:
    response = Client().get("/login/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Nama pengguna" in body and "Kata sandi" in body


@pytest.mark.django_db
def test_health_probe_needs_no_login() -> None:
    assert Client().get("/healthz").status_code == 200
