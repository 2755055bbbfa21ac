"""GET /docs/ai-assistants ("Hubungkan asisten AI") is public and gives this instance's MCP
endpoint in client configurations a person can copy, with the limits in force."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _block(html: str, testid: str) -> str:
    match = re.search(rf'data-testid="{testid}">(.*?)</code>', html, re.S)
    assert match, testid
    return unescape(match.group(1))


def test_the_page_is_public_and_names_the_endpoint(client: Client) -> None:
    response = client.get("/docs/ai-assistants")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Hubungkan asisten AI" in html
    assert _block(html, "mcp-endpoint") == "http://testserver/mcp"


def test_the_generic_config_is_json_with_the_url_and_the_bearer_header(client: Client) -> None:
    html = client.get("/docs/ai-assistants").content.decode()
    config = json.loads(_block(html, "config-generic"))["mcpServers"]["aceh-rag"]
    assert config["url"] == "http://testserver/mcp"
    assert config["headers"]["Authorization"].startswith("Bearer ")
    desktop = json.loads(_block(html, "config-claude-desktop"))["mcpServers"]["aceh-rag"]
    assert "http://testserver/mcp" in desktop["args"]


def test_the_page_shows_the_limits_in_force(client: Client, settings: Any) -> None:
    settings.API_RATE_LIMIT = "7/second"
    settings.API_RATE_BURST = 21
    html = client.get("/docs/ai-assistants").content.decode()
    assert "7/second" in html and "21" in html
