"""Every HTML answer carries the strict Content-Security-Policy, exactly."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.http.response import HttpResponseBase
from django.test import Client

# django-csp does not keep the directives' order, so policies are compared as mappings.
STRICT_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
ANONYMOUS = ["/login/", "/docs/api/partner-events", "/healthz"]
SIGNED_IN = ["/", "/documents/", "/upload/", "/review/", "/jobs/", "/search/?q=qanun", "/api/docs"]


def policy(response: HttpResponseBase) -> dict[str, str]:
    directives = (
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    return {name: sources for name, sources in directives}


@pytest.fixture
def signed_in(db: object) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("admin-csp", "", "x" * 12))
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("url", ANONYMOUS)
def test_public_pages_carry_the_policy(url: str) -> None:
    response = Client().get(url)
    assert response.status_code == 200
    assert policy(response) == STRICT_POLICY


@pytest.mark.parametrize("url", SIGNED_IN)
def test_signed_in_pages_carry_the_policy(signed_in: Client, url: str) -> None:
    response = signed_in.get(url)
    assert response.status_code == 200, url
    assert policy(response) == STRICT_POLICY


@pytest.mark.django_db
def test_error_pages_and_lockouts_carry_it_too() -> None:
    client = Client()
    assert policy(client.get("/tidak-ada/")) == STRICT_POLICY
    for _ in range(5):
        lockout = client.post("/login/", {"username": "siapa", "password": "salah"})
    assert lockout.status_code == 429
    assert policy(lockout) == STRICT_POLICY


def test_the_policy_allows_no_inline_code_no_eval_and_no_framing() -> None:
    sources = " ".join(STRICT_POLICY.values())
    assert "unsafe-inline" not in sources and "unsafe-eval" not in sources
    assert STRICT_POLICY["frame-ancestors"] == "'none'"
