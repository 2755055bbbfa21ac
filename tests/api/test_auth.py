"""Machine clients use a bearer token, the UI its session; failures are JSON with a code."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.api.helpers import bearer, issue_token

pytestmark = pytest.mark.django_db

URL = "/api/search?q=retribusi"


def test_a_request_without_credentials_gets_401_json_with_a_code(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 401
    assert response.json()["code"] == "UNAUTHENTICATED"


def test_an_unknown_token_gets_401(client: Client) -> None:
    response = client.get(URL, headers=bearer("acr_tidak-pernah-dibuat"))
    assert response.status_code == 401
    assert response.json()["code"] == "UNAUTHENTICATED"


def test_a_valid_token_is_accepted(client: Client) -> None:
    response = client.get(URL, headers=bearer(issue_token()))
    assert response.status_code == 200
    assert set(response.json()) == {"results", "degraded", "tookMs", "namedRegulationMissing"}


def test_a_logged_in_session_is_accepted(client: Client) -> None:
    user = get_user_model().objects.create_user("petugas", password="rahasia-panjang-123")
    client.force_login(user)
    assert client.get(URL).status_code == 200


def test_a_session_post_without_csrf_token_is_refused_as_json() -> None:
    user = get_user_model().objects.create_user("petugas", password="rahasia-panjang-123")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post("/api/documents", data={})
    assert response.status_code in (401, 403)
    assert "code" in response.json()
