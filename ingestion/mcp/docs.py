"""The public page "Hubungkan asisten AI": the MCP endpoint of this instance, the client
configuration to copy, the tools, and the rules a token lives by (read from settings)."""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ingestion.mcp.server import MCP_PATH

TOKEN_PLACEHOLDER = "acr_TOKEN_ANDA"


def _pretty(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def client_configs(endpoint: str) -> dict[str, str]:
    """What each kind of client is given (the token is always a placeholder)."""
    header = f"Authorization: Bearer {TOKEN_PLACEHOLDER}"
    return {
        "generic": _pretty(
            {
                "mcpServers": {
                    "aceh-rag": {
                        "type": "http",
                        "url": endpoint,
                        "headers": {"Authorization": f"Bearer {TOKEN_PLACEHOLDER}"},
                    }
                }
            }
        ),
        "claude_desktop": _pretty(
            {
                "mcpServers": {
                    "aceh-rag": {
                        "command": "npx",
                        "args": ["-y", "mcp-remote", endpoint, "--header", header],
                    }
                }
            }
        ),
        "claude_code": f'claude mcp add --transport http aceh-rag {endpoint} --header "{header}"',
        "python": (
            "import httpx2\n"
            "from mcp.client.session import ClientSession\n"
            "from mcp.client.streamable_http import streamable_http_client\n\n"
            f'headers = {{"Authorization": "Bearer {TOKEN_PLACEHOLDER}"}}\n'
            "async with httpx2.AsyncClient(headers=headers) as http:\n"
            f'    async with streamable_http_client("{endpoint}", http_client=http) as s:\n'
            "        r, w = s[0], s[1]\n"
            "        async with ClientSession(r, w) as session:\n"
            "            await session.initialize()\n"
            '            status = await session.call_tool("law_status", {"ref": "UU 11/2008"})'
        ),
    }


def ai_assistants_page(request: HttpRequest) -> HttpResponse:
    """Public, in Indonesian, like the partner contract page."""
    endpoint = request.build_absolute_uri(MCP_PATH)
    context = {
        "endpoint": endpoint,
        "configs": client_configs(endpoint),
        "public_labels": ", ".join(settings.PUBLIC_CLASSIFICATIONS),
        "rate": settings.API_RATE_LIMIT,
        "burst": settings.API_RATE_BURST,
        "upload_rate": settings.API_UPLOAD_RATE_LIMIT,
        "upload_burst": settings.API_UPLOAD_RATE_BURST,
        "concurrency": settings.API_CONCURRENCY or "tanpa batas",
        "fair_share": settings.API_FAIR_SHARE,
    }
    return render(request, "ingestion/docs/ai_assistants.html", context)
