"""Fixtures of the ui tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from ingestion.management.commands.ensure_admin import ADMIN_GROUP, REVIEWER_GROUP
from tests.ui.helpers import client_for, make_user


@pytest.fixture
def admin_user(db: Any) -> User:
    return make_user("admin-uji", group=ADMIN_GROUP)


@pytest.fixture
def reviewer_user(db: Any) -> User:
    return make_user("peninjau-uji", group=REVIEWER_GROUP)


@pytest.fixture
def admin_client(admin_user: User) -> Client:
    return client_for(admin_user)


@pytest.fixture
def reviewer_client(reviewer_user: User) -> Client:
    return client_for(reviewer_user)
