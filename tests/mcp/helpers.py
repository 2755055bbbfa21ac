"""The MCP SDK's own client against the live server, and the documents the tests store."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from io import StringIO
from typing import Any, TypeVar

import anyio
import httpx2
from django.core.management import call_command
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextContent

T = TypeVar("T")


def issue(name: str, *options: str) -> str:
    out = StringIO()
    call_command("create_api_token", name, *options, stdout=out, stderr=StringIO())
    return out.getvalue().strip().splitlines()[-1]


async def _session(url: str, token: str | None, use: Callable[[ClientSession], Awaitable[T]]) -> T:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with streamable_http_client(f"{url}/mcp", http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                return await use(session)


def with_session(url: str, token: str | None, use: Callable[[ClientSession], Awaitable[T]]) -> T:
    """Run ``use`` in one initialized MCP session (synchronously, for pytest)."""

    async def main() -> T:
        return await _session(url, token, use)

    return anyio.run(main)


def call_tool(url: str, token: str, name: str, arguments: dict[str, Any]) -> Any:
    """The tool's CallToolResult."""
    return with_session(url, token, lambda s: s.call_tool(name, arguments))


def payload(result: Any) -> dict[str, Any]:
    """A successful tool result's JSON (structured content, else the text)."""
    assert not result.is_error, result.content
    if getattr(result, "structured_content", None):
        return dict(result.structured_content)
    return json.loads(text_of(result))


def text_of(result: Any) -> str:
    """The text of a tool result (its first text block)."""
    return next(block.text for block in result.content if isinstance(block, TextContent))
