"""POST /api/partner-events/validate answers with check_doc_uploaded's verdict object."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from partner_events.docs import REQUIRED_EXAMPLE
from tests.api.helpers import bearer, issue_token

pytestmark = pytest.mark.django_db

URL = "/api/partner-events/validate"


def post(client: Client, body: bytes, headers: dict[str, str]) -> dict:
    response = client.post(URL, data=body, content_type="application/json", headers=headers)
    assert response.status_code == 200, response.content
    return response.json()


def test_a_valid_event_is_accepted_and_normalized(client: Client) -> None:
    verdict = post(client, json.dumps(REQUIRED_EXAMPLE).encode(), headers=bearer(issue_token()))
    assert verdict["outcome"] == "accept"
    assert verdict["normalized"]["sourceKey"] == REQUIRED_EXAMPLE["documentId"]
    assert verdict["statusEvent"] is None


def test_a_malformed_event_is_a_reject_verdict_not_an_http_error(client: Client) -> None:
    event = dict(REQUIRED_EXAMPLE, uploadedAt="kemarin")
    verdict = post(client, json.dumps(event).encode(), headers=bearer(issue_token()))
    assert verdict["outcome"] == "reject"
    assert "uploadedAt" in verdict["error"]
    assert verdict["statusEvent"]["status"] == "failed"


def test_bytes_that_are_not_json_are_rejected(client: Client) -> None:
    verdict = post(client, b"\xff{not json", headers=bearer(issue_token()))
    assert verdict["outcome"] == "reject"


def test_a_browser_session_alone_cannot_use_it() -> None:
    user = get_user_model().objects.create_user("petugas", password="rahasia-panjang-123")
    client = Client()
    client.force_login(user)
    response = client.post(URL, data=b"{}", content_type="application/json")
    assert response.status_code == 401
    assert response.json()["code"] == "UNAUTHENTICATED"
