"""A token's API reads — REST GETs and MCP tool calls — are counted for the token's fair
share of the CPU (aceh_rag.platform.fairness); writes and calls without a token are not."""

from __future__ import annotations

import pytest
from django.test import Client

from ingestion.fair_share import SHARE
from ingestion.tokens import client_key
from tests.api.helpers import bearer, issue_token
from tests.mcp.helpers import call_tool, issue


@pytest.mark.django_db
def test_a_rest_read_with_a_token_is_counted_for_the_token(client: Client) -> None:
    token = issue_token("pembaca-rest")
    assert client.get("/api/search?q=pajak", headers=bearer(token)).status_code == 200
    assert SHARE.served(client_key("pembaca-rest")) > 0


@pytest.mark.django_db
def test_a_write_is_never_counted(client: Client) -> None:
    token = issue_token("penulis-rest")
    client.post("/api/documents", data={}, headers=bearer(token))
    assert SHARE.served(client_key("penulis-rest")) == 0


@pytest.mark.django_db(transaction=True)
def test_an_mcp_tool_call_is_counted_for_the_token(live_url: str) -> None:
    token = issue("asisten-adil")
    result = call_tool(live_url, token, "search", {"query": "pajak"})
    assert not result.is_error
    assert SHARE.served(client_key("asisten-adil")) > 0
