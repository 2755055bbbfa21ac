"""ASGI entry point: one server, one port, two apps.

``/mcp`` is the MCP server (:mod:`ingestion.mcp.server`, ASGI, official SDK); every other
path is Django's WSGI application in a2wsgi's thread pool, so views keep their threaded
WSGI behaviour (DrainMiddleware, per-request connections) under the uvicorn workers that
gunicorn runs (``docker/gunicorn.conf.py``). The lifespan (the MCP session manager) goes
to the MCP app; Django has none. See docs/decisions.md "MCP on the app's own port".
"""

from __future__ import annotations

import os
from typing import Any, cast

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceh_rag.settings")


def build_application() -> Any:
    # get_wsgi_application() runs django.setup(); Django's stubs type it loosely.
    django_app: Any = WSGIMiddleware(cast(Any, get_wsgi_application()), workers=_threads())
    from ingestion.mcp.server import MCP_PATH, gated_app
    from ingestion.rate_gate import RateGate

    mcp_app = gated_app()
    django_app = RateGate(django_app)  # /api/ budgets counted before a Django thread

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] == "lifespan" or path == MCP_PATH or path.startswith(MCP_PATH + "/"):
            await mcp_app(scope, receive, send)
        else:
            await django_app(scope, receive, send)

    return application


def _threads() -> int:
    from django.conf import settings

    return int(settings.WEB_THREADS)


application = build_application()
