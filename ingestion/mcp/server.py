"""The MCP server (official ``mcp`` SDK, Streamable HTTP at ``/mcp``): four tools and one
resource over :mod:`ingestion.mcp.adapter`, each answer with the exact citation, the text
and a link to the reader page.

Stateless JSON mode: every request stands alone, so any web worker can answer it and no
session outlives a request. The bearer token is checked in front of the app
(:class:`~ingestion.mcp.auth.TokenGate`); each call then runs, in a worker thread, under
that token's visibility. A bad reference is a tool error with a message a person reads
(never a 500); an unexpected failure is a tool error without the traceback.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio.to_thread
from django.db import close_old_connections
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette

from ingestion.fair_share import fair_share
from ingestion.mcp import adapter
from ingestion.mcp.auth import SCOPE_KEY, TokenGate
from ingestion.tokens import client_key, token_visibility
from ingestion.visibility import Visibility, acting_as

log = logging.getLogger(__name__)

MCP_PATH = "/mcp"
T = TypeVar("T")

INSTRUCTIONS = (
    "Basis pengetahuan peraturan dan dokumen Pemerintah Aceh. Setiap jawaban memuat sitasi "
    "persis, teks, dan tautan halaman baca; kutip sitasinya. / Knowledge base of Aceh "
    "government regulations and documents. Every answer carries the exact citation, the text "
    "and a reader link; quote the citation."
)


def _caller(ctx: Context) -> tuple[Visibility, adapter.Links, str]:
    request = ctx.request_context.request
    scope = getattr(request, "scope", {}) or {}
    token = scope.get(SCOPE_KEY)
    if token is None:  # the gate lets nothing through without one; belt and braces
        raise ToolError("Perlu token API / an API token is required")
    base = str(getattr(request, "base_url", "") or "")
    return token_visibility(token), adapter.Links(base_url=base), client_key(token.name)


async def _call(ctx: Context, name: str, fn: Callable[[adapter.Links], T]) -> T:
    visibility, links, client = _caller(ctx)

    def run() -> T:
        close_old_connections()
        started = time.perf_counter()
        try:
            with acting_as(visibility), fair_share(client):  # every tool only reads
                return fn(links)
        finally:
            log.info("mcp %s took %.1f ms", name, (time.perf_counter() - started) * 1000)
            close_old_connections()  # as Django does per request (CONN_MAX_AGE)

    try:
        return await anyio.to_thread.run_sync(run)
    except adapter.ToolInputError as exc:
        raise ToolError(str(exc)) from None
    except ToolError:
        raise
    except Exception:
        log.exception("mcp tool %s failed", name)
        raise ToolError("Kesalahan internal server; coba lagi nanti / internal error") from None


def build_server() -> MCPServer:
    server: MCPServer = MCPServer(name="aceh-rag", instructions=INSTRUCTIONS)

    @server.tool(
        name="search",
        description=(
            "Cari peraturan dan dokumen (hybrid: makna + kata kunci). Hasil memuat sitasi "
            "persis (mis. 'PP 34/2021 Pasal 21 ayat (4)'), teks unit, status berlaku, dan "
            "tautan. Filter: jenis (UU, PP, Qanun…), tahun, wilayah, source_type (JDIH, PPID, "
            "OpenData, SatuData, upload); include_repealed menyertakan yang dicabut. / Search "
            "regulations and documents; each hit has the exact citation, the unit text, "
            "whether it is in force and a link."
        ),
    )
    async def search(
        query: str,
        ctx: Context,
        jenis: str | None = None,
        tahun: str | None = None,
        wilayah: str | None = None,
        source_type: str | None = None,
        as_of: str | None = None,
        include_repealed: bool = False,
        limit: int = 10,
    ) -> dict[str, Any]:
        arguments = {
            "query": query,
            "jenis": jenis,
            "tahun": tahun,
            "wilayah": wilayah,
            "source_type": source_type,
            "as_of": as_of,
            "include_repealed": include_repealed,
            "limit": limit,
        }
        return await _call(ctx, "search", lambda links: adapter.run_search(arguments, links))

    @server.tool(
        name="get_unit",
        description=(
            "Ambil satu unit peraturan, mis. 'UU 13/2003 Pasal 59 ayat (4)': teks yang "
            "berlaku, keadaannya (berlaku, diubah, disisipkan, dihapus, dicabut), changedBy "
            "(peraturan pengubah) dan riwayatnya. / Get one unit of a regulation: the text in "
            "force, its state, changedBy and its history."
        ),
    )
    async def get_unit(ref: str, ctx: Context, as_of: str | None = None) -> dict[str, Any]:
        return await _call(ctx, "get_unit", lambda links: adapter.get_unit(ref, as_of, links))

    @server.tool(
        name="law_status",
        description=(
            "Status peraturan, mis. 'UU 11/2008': masih berlaku atau tidak dan alasannya, "
            "diubah oleh (dengan pasal yang diubah), dicabut oleh, rangkaian perubahan, dan "
            "apakah rangkaian itu lengkap. / Status of a regulation: in force or not and why, "
            "amended by (with the articles changed), repealed by, the amendment chain and "
            "whether it is complete."
        ),
    )
    async def law_status(ref: str, ctx: Context) -> dict[str, Any]:
        return await _call(ctx, "law_status", lambda links: adapter.law_status(ref, links))

    @server.tool(
        name="list_regulations",
        description=(
            "Daftar peraturan di basis pengetahuan, dengan filter jenis, tahun, wilayah, dan q "
            "(kata dalam judul atau sitasi). / List the regulations here, filtered by jenis, "
            "year, region and q (words of the title or citation)."
        ),
    )
    async def list_regulations(
        ctx: Context,
        jenis: str | None = None,
        tahun: str | None = None,
        wilayah: str | None = None,
        q: str | None = None,
        limit: int = 20,
    ) -> dict[str, Any]:
        arguments = {"jenis": jenis, "tahun": tahun, "wilayah": wilayah, "q": q, "limit": limit}
        return await _call(
            ctx, "list_regulations", lambda links: adapter.list_regulations(arguments, links)
        )

    @server.resource(
        "regulation://{jenis}/{tahun}/{nomor}",
        name="regulation",
        description=(
            "Teks peraturan dengan statusnya, mis. regulation://UU/2008/11. / The text of a "
            "regulation with its status."
        ),
        mime_type="text/markdown",
    )
    async def regulation(jenis: str, tahun: str, nomor: str, ctx: Context) -> str:
        try:
            return await _call(
                ctx,
                "regulation",
                lambda links: adapter.consolidated_text(jenis, tahun, nomor, links),
            )
        except ToolError as exc:
            raise ResourceNotFoundError(str(exc)) from None

    return server


def build_app() -> Starlette:
    """A fresh MCP ASGI app (its session manager runs once, in this app's lifespan)."""
    # Bearer tokens, not cookies: a page rebinding DNS has no token to send, so the SDK's
    # Host/Origin check (which would refuse every real host name) is left off.
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = build_server().streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        transport_security=security,
    )
    return app


def gated_app() -> Any:
    return TokenGate(build_app())
