"""Errors the framework raises itself still reach people in Indonesian, with a stable code."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_missing_csrf_token_is_explained_in_indonesian() -> None:
    user = get_user_model().objects.create_user("petugas", password="rahasia-panjang-123")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    body = client.post("/api/documents", data={}).json()
    assert body["code"] == "CSRF_FAILED"
    assert "CSRF" in body["detail"] and "Failed" not in body["detail"]
