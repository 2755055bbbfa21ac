"""The API's OpenAPI document and browsable docs are pages like any other: login first."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/docs", "/api/openapi.json"])
def test_an_anonymous_visitor_is_sent_to_login_for_the_api_docs(url: str) -> None:
    response = Client().get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/docs/api/partner-events",
        "/docs/api/partner-events/doc-uploaded.schema.json",
        "/docs/api/partner-events/stage-status.schema.json",
        "/healthz",
    ],
)
def test_the_partner_documentation_and_probes_stay_public(url: str) -> None:
    assert Client().get(url).status_code == 200
