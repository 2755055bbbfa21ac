"""A malformed message, an unknown tool, a missing argument or a reference that names
nothing: each a clear MCP error, none a 500 or a traceback. No token, no tools; a revoked
token is refused at once."""

from __future__ import annotations

from io import StringIO

import httpx
import pytest
from django.core.management import call_command
from mcp.client.session import ClientSession

from tests.mcp.helpers import issue, text_of, with_session

pytestmark = pytest.mark.django_db(transaction=True)

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _post(url: str, token: str | None, content: bytes) -> httpx.Response:
    headers = {**ACCEPT, **({"Authorization": f"Bearer {token}"} if token else {})}
    return httpx.post(f"{url}/mcp", content=content, headers=headers)


def test_a_malformed_message_is_a_json_rpc_error(live_url: str) -> None:
    token = issue("asisten")
    response = _post(live_url, token, b'{"jsonrpc": "2.0", "id": 1, "method": ')
    assert 400 <= response.status_code < 500
    assert response.json()["error"]["code"] == -32700  # parse error
    assert "Traceback" not in response.text


def test_an_unknown_tool_a_missing_argument_and_a_bad_reference_are_tool_errors(
    live_url: str,
) -> None:
    token = issue("asisten")

    async def calls(session: ClientSession) -> list[tuple[bool, str]]:
        results = [
            await session.call_tool("tidak_ada", {}),
            await session.call_tool("get_unit", {}),
            await session.call_tool("law_status", {"ref": "bukan rujukan"}),
            await session.call_tool("get_unit", {"ref": "UU 999/2099 Pasal 1"}),
            await session.call_tool("search", {"query": "pajak", "as_of": "kemarin"}),
        ]
        return [(r.is_error, text_of(r)) for r in results]

    answers = with_session(live_url, token, calls)
    assert all(is_error for is_error, _ in answers)
    unknown, missing, unparsed, absent, bad_date = (text for _, text in answers)
    assert "tidak_ada" in unknown
    assert "ref" in missing
    assert "tidak dikenali" in unparsed
    assert "UU 999/2099 tidak ada di basis pengetahuan ini" in absent
    assert "YYYY-MM-DD" in bad_date
    assert not any("Traceback" in text for _, text in answers)


def test_an_unknown_resource_is_an_mcp_error(live_url: str) -> None:
    token = issue("asisten")

    async def read(session: ClientSession) -> str:
        try:
            await session.read_resource("regulation://UU/2099/999")
        except Exception as exc:  # McpError carries the server's message
            return str(exc)
        return "no error"

    message = with_session(live_url, token, read)
    assert "tidak ada di basis pengetahuan ini" in message


def test_no_token_no_tools(live_url: str) -> None:
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'
    for token in (None, "acr_tidak-sah"):
        response = _post(live_url, token, body)
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert response.json()["code"] == "UNAUTHENTICATED"


def test_a_revoked_token_is_refused_at_once(live_url: str) -> None:
    token = issue("dicabut")
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
    assert _post(live_url, token, body).status_code == 200
    call_command("revoke_api_token", "dicabut", stdout=StringIO())
    assert _post(live_url, token, body).status_code == 401


def test_a_token_without_the_search_scope_gets_no_tools(live_url: str) -> None:
    token = issue("pengunggah", "--scope", "upload")
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'
    response = _post(live_url, token, body)
    assert response.status_code == 403
    assert response.json()["code"] == "SCOPE_MISSING"
