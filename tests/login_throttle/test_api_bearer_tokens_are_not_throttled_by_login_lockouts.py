"""The API's bearer tokens bypass the login throttle, in both directions."""

from __future__ import annotations

from typing import Any

from axes.models import AccessAttempt
from django.test import Client

from tests.api.helpers import bearer, issue_token
from tests.login_throttle.conftest import PASSWORD, attempt, fail

URL = "/api/search?q=retribusi"


def test_a_valid_token_works_from_an_ip_whose_login_is_locked(client: Client, petugas: Any) -> None:
    token = issue_token()
    fail(client, "petugas", 5)
    assert attempt(client, "petugas", PASSWORD).status_code == 429

    response = Client().get(URL, headers=bearer(token))

    assert response.status_code == 200
    assert set(response.json()) == {"results", "degraded", "tookMs", "namedRegulationMissing"}


def test_bad_tokens_are_401s_that_never_count_as_login_failures(
    client: Client, petugas: Any
) -> None:
    for _ in range(10):
        response = client.get(URL, headers=bearer("acr_tebakan"))
        assert response.status_code == 401
        assert response.json()["code"] == "UNAUTHENTICATED"
    assert AccessAttempt.objects.count() == 0
    assert attempt(client, "petugas", PASSWORD).status_code == 302
