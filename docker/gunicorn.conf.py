"""Gunicorn settings for Aceh RAG (web process).

Graceful drain (platform conventions §7): on SIGTERM gunicorn stops accepting, lets
in-flight requests finish within ``graceful_timeout``, and our DrainMiddleware answers any
request that still arrives on a kept-alive connection with 503 + Retry-After.
"""

import os

bind = os.environ.get("BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "4"))  # Django's pool in aceh_rag.asgi
# ASGI workers: /mcp (the MCP SDK) is ASGI; Django runs in a2wsgi's thread pool.
worker_class = "uvicorn_worker.UvicornWorker"
timeout = int(os.environ.get("WEB_TIMEOUT", "120"))
graceful_timeout = int(os.environ.get("WEB_GRACEFUL_TIMEOUT", "30"))
keepalive = 5
accesslog = "-"
errorlog = "-"


def post_worker_init(worker):  # type: ignore[no-untyped-def]
    # A uvicorn worker hands SIGTERM/SIGINT to uvicorn's own Server.handle_exit (gunicorn's
    # worker.handle_exit never runs), so the drain flag is set there: from the signal on,
    # a request still reaching Django is answered 503 + Retry-After while in-flight ones finish.
    from uvicorn.server import Server

    from aceh_rag.platform.drain import start_draining

    original = Server.handle_exit

    def handle_exit(self, sig, frame):  # type: ignore[no-untyped-def]
        start_draining()
        original(self, sig, frame)

    Server.handle_exit = handle_exit  # type: ignore[method-assign]
