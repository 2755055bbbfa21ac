"""create_api_token prints the token last and stores only its hash; revoke stops it."""

from __future__ import annotations

import hashlib
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from ingestion.models import ApiToken
from tests.api.helpers import bearer, issue_token

pytestmark = pytest.mark.django_db


def test_the_token_is_printed_on_the_last_line_and_only_its_hash_is_stored() -> None:
    token = issue_token("portal-jdih")
    stored = ApiToken.objects.get(name="portal-jdih")
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in (stored.token_hash, stored.prefix)
    assert token.startswith(stored.prefix)


def test_a_second_active_token_with_the_same_name_is_refused() -> None:
    issue_token("portal-jdih")
    with pytest.raises(CommandError):
        issue_token("portal-jdih")


def test_a_revoked_token_no_longer_authenticates(client: Client) -> None:
    token = issue_token("portal-jdih")
    assert client.get("/api/search?q=pajak", headers=bearer(token)).status_code == 200
    call_command("revoke_api_token", "portal-jdih", stdout=StringIO())
    response = client.get("/api/search?q=pajak", headers=bearer(token))
    assert response.status_code == 401


def test_a_revoked_name_can_be_issued_again() -> None:
    first = issue_token("portal-jdih")
    call_command("revoke_api_token", "portal-jdih", stdout=StringIO())
    assert issue_token("portal-jdih") != first


def test_revoking_an_unknown_name_is_an_error() -> None:
    with pytest.raises(CommandError):
        call_command("revoke_api_token", "tidak-ada", stdout=StringIO())
