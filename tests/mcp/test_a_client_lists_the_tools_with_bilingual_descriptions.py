"""The SDK's client sees the four tools and the regulation resource, described in
Indonesian and English."""

from __future__ import annotations

import pytest

from tests.mcp.helpers import issue, with_session

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_four_tools_are_listed_with_both_languages(live_url: str) -> None:
    token = issue("asisten")
    tools = with_session(live_url, token, lambda s: s.list_tools()).tools
    by_name = {tool.name: tool for tool in tools}
    assert set(by_name) == {"search", "get_unit", "law_status", "list_regulations"}
    for tool in tools:
        assert " / " in (tool.description or ""), tool.name  # Indonesian / English
    assert by_name["search"].input_schema["required"] == ["query"]


def test_the_regulation_resource_template_is_listed(live_url: str) -> None:
    token = issue("asisten")
    templates = with_session(live_url, token, lambda s: s.list_resource_templates())
    assert [t.uri_template for t in templates.resource_templates] == [
        "regulation://{jenis}/{tahun}/{nomor}"
    ]
