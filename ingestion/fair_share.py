"""Fair shares of the CPU (:mod:`aceh_rag.platform.fairness`) for the API's reads.

REST ``GET``/``HEAD`` calls under ``/api/`` with a bearer token (:class:`FairShareMiddleware`)
and MCP tool calls (:func:`fair_share`, from :mod:`ingestion.mcp.server`) are registered for
their token while Django serves them, and every SQL statement they run is a checkpoint
where a token that has had far more pauses for a far lighter one. Writes (uploads) never
take part. ``API_FAIR_SHARE=false`` turns it off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from aceh_rag.platform.fairness import FairShare, checkpoints
from ingestion.rate_gate import cached_token_name
from ingestion.tokens import client_key

SHARE = FairShare(enabled=settings.API_FAIR_SHARE)
_READS = frozenset({"GET", "HEAD"})


@contextmanager
def fair_share(client: str) -> Iterator[None]:
    """Serve the calling thread's read for ``client``; its SQL statements are checkpoints."""
    if not SHARE.enabled:
        yield
        return
    with SHARE.serve(client), checkpoints(SHARE):
        yield


class FairShareMiddleware:
    """Registers a token's API reads; everything else passes by."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        client = _reader(request)
        if client is None:
            return self.get_response(request)
        with fair_share(client):
            return self.get_response(request)


def _reader(request: HttpRequest) -> str | None:
    """The client of an API read with a known token, else None."""
    if not SHARE.enabled:
        return None
    if request.method not in _READS or not request.path.startswith("/api/"):
        return None
    scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not raw.strip():
        return None
    name = cached_token_name(raw.strip())
    return client_key(name) if name is not None else None
