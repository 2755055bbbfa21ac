"""Per-token rate limits: over its burst a token gets 429 + Retry-After (REST and MCP),
other tokens are untouched, uploads and searches are separate budgets, and refusals are
counted per token in /metrics."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from django.test import Client

from tests.api.helpers import bearer, issue_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def tight(settings: Any) -> None:
    """Bursts of 3 searches and 2 uploads in a window of minutes: slow calls on a loaded
    machine cannot let a call fall out of the window before the last one is made."""
    settings.API_RATE_LIMIT = "1/minute"
    settings.API_RATE_BURST = 3
    settings.API_UPLOAD_RATE_LIMIT = "1/minute"
    settings.API_UPLOAD_RATE_BURST = 2


def _search(client: Client, token: str) -> Any:
    return client.get("/api/search?q=pajak", headers=bearer(token))


def test_the_call_after_the_burst_is_refused_with_retry_after(client: Client, tight: Any) -> None:
    token = issue_token("rakus")
    assert [_search(client, token).status_code for _ in range(3)] == [200, 200, 200]
    refused = _search(client, token)
    assert refused.status_code == 429
    assert refused.json()["code"] == "RATE_LIMITED"
    assert 1 <= int(refused["Retry-After"]) <= 180  # until the first call leaves the window
    assert refused.json()["retryAfter"] == int(refused["Retry-After"])


def test_another_token_keeps_its_own_budget(client: Client, tight: Any) -> None:
    greedy, calm = issue_token("rakus"), issue_token("tenang")
    for _ in range(4):
        _search(client, greedy)
    assert _search(client, greedy).status_code == 429
    assert _search(client, calm).status_code == 200


def test_uploads_have_a_budget_apart_from_searches(client: Client, tight: Any) -> None:
    token = issue_token("pengunggah")
    for _ in range(3):
        _search(client, token)
    assert _search(client, token).status_code == 429
    # The search budget is spent; an upload still passes the door (then fails validation).
    upload = client.post("/api/documents", {"title": "x"}, headers=bearer(token))
    assert upload.status_code != 429
    client.post("/api/documents", {"title": "x"}, headers=bearer(token))
    assert client.post("/api/documents", {"title": "x"}, headers=bearer(token)).status_code == 429


def test_refusals_are_counted_per_token_in_metrics(client: Client, tight: Any) -> None:
    token = issue_token("terhitung")
    for _ in range(5):
        _search(client, token)
    metrics = client.get("/metrics").content.decode()
    line = next(
        line
        for line in metrics.splitlines()
        if line.startswith("aceh_rag_api_rate_limited_total{")
        and 'token="token:terhitung"' in line
        and 'budget="search"' in line
    )
    assert float(line.rsplit(" ", 1)[1]) >= 2


def test_off_turns_the_budget_off(client: Client, settings: Any) -> None:
    settings.API_RATE_LIMIT = "off"
    settings.API_RATE_BURST = 1
    token = issue_token("bebas")
    assert {_search(client, token).status_code for _ in range(5)} == {200}


@pytest.mark.django_db(transaction=True)
def test_the_mcp_endpoint_answers_429_with_retry_after(live_url: str, tight: Any) -> None:
    token = issue_token("asisten-rakus")
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {**bearer(token), "Accept": "application/json, text/event-stream"}
    statuses = [httpx.post(f"{live_url}/mcp", json=body, headers=headers) for _ in range(4)]
    assert [r.status_code for r in statuses[:3]] != [429] * 3
    assert statuses[3].status_code == 429
    assert int(statuses[3].headers["Retry-After"]) >= 1


@pytest.mark.django_db(transaction=True)
def test_through_the_server_a_call_is_counted_once_and_refused_before_django(
    live_url: str, tight: Any
) -> None:
    token = issue_token("lewat-server")
    calls = [
        httpx.get(f"{live_url}/api/search", params={"q": "pajak"}, headers=bearer(token))
        for _ in range(4)
    ]
    assert [c.status_code for c in calls] == [200, 200, 200, 429]
    assert calls[3].json()["code"] == "RATE_LIMITED"
    assert int(calls[3].headers["Retry-After"]) >= 1
