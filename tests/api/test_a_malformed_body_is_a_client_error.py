"""A malformed request body is the client's fault: 400 with a code, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.helpers import bearer, issue_token

pytestmark = pytest.mark.django_db


def test_an_unreadable_body_is_explained_in_indonesian(client: Client) -> None:
    response = client.post(
        "/api/documents",
        data=b"--x\r\nrusak",
        content_type="multipart/form-data; boundary=",
        headers=bearer(issue_token()),
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "HTTP_400"
    assert body["detail"] == "Isi permintaan tidak dapat dibaca"
