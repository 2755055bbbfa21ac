"""A user with a known password, and a login helper that can pretend to come from any IP."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

PASSWORD = "kata-sandi-benar-123"
LOGIN_URL = "/login/"


@pytest.fixture
def petugas(db: Any) -> Any:
    return get_user_model().objects.create_user("petugas", password=PASSWORD)


def attempt(client: Client, username: str, password: str, ip: str = "127.0.0.1") -> Any:
    return client.post(LOGIN_URL, {"username": username, "password": password}, REMOTE_ADDR=ip)


def fail(client: Client, username: str, times: int, ip: str = "127.0.0.1") -> Any:
    response = None
    for _ in range(times):
        response = attempt(client, username, "salah-tebak", ip)
    return response
