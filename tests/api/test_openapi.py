"""The published OpenAPI document is a valid OpenAPI spec and names every endpoint."""

from __future__ import annotations

import pytest
from django.test import Client
from openapi_spec_validator import validate

from tests.ui.helpers import client_for, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    return client_for(make_user("pembaca-api"))


def test_the_openapi_document_is_valid_and_complete(client: Client) -> None:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    spec = response.json()
    validate(spec)
    paths = set(spec["paths"])
    assert {
        "/api/search",
        "/api/documents",
        "/api/documents/{document_id}",
        "/api/jobs/{job_id}",
        "/api/partner-events/validate",
    } <= paths


def test_the_interactive_docs_are_served(client: Client) -> None:
    assert client.get("/api/docs").status_code == 200
