"""Optional reranking of search candidates through the model gateway.

Dormant unless ``GATEWAY_RERANK_MODEL`` (and ``MODEL_GATEWAY_URL``) are set. The first
``SEARCH_RERANK_CANDIDATES`` fused candidates are sent as passages (heading path + text) in
one interactive call (:meth:`aceh_rag.platform.gateway.GatewayClient.rerank`); the
reranker's order replaces theirs, the rest follow unchanged. A named unit of a reference
query stays first: the person asked for it.

Search never waits on the reranker: on backpressure (429/503), a timeout, a 5xx or any
other refusal the fused order comes back unchanged and the response says
``degraded: "no_rerank"``. Scores stay the fusion's; only the order changes.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.conf import settings

from aceh_rag.platform.gateway.errors import GatewayError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Reranked:
    order: list[tuple[int, float]]
    degraded: bool


def rerank_enabled() -> bool:
    return bool(settings.MODEL_GATEWAY_URL and settings.GATEWAY_RERANK_MODEL)


def rerank(
    query: str,
    fused: Sequence[tuple[int, float]],
    passages: dict[int, str],
    *,
    pinned: Collection[int] = (),
) -> Reranked:
    """``fused`` reordered by the gateway's reranker; see the module docstring."""
    from aceh_rag.platform.context import call_context
    from aceh_rag.platform.gateway.client import get_gateway_client

    client = get_gateway_client()
    head = [item for item in fused if item[0] not in pinned and item[0] in passages]
    head = head[: int(settings.SEARCH_RERANK_CANDIDATES)]
    if client is None or not client.config.rerank_model or len(head) < 2:
        return Reranked(list(fused), degraded=False)
    try:
        with call_context(surface="search", traffic_class="interactive"):
            ranked = client.rerank(
                query, [passages[chunk_id] for chunk_id, _ in head], top_n=len(head)
            )
    except GatewayError as exc:
        log.warning("search rerank skipped (%s): %s", exc.code, exc.reason)
        return Reranked(list(fused), degraded=True)
    reordered = [head[index] for index, _score in ranked]
    placed = {chunk_id for chunk_id, _ in reordered}
    reordered += [item for item in head if item[0] not in placed]
    moved = {chunk_id for chunk_id, _ in head}
    first = [item for item in fused if item[0] in pinned]
    rest = [item for item in fused if item[0] not in moved and item[0] not in pinned]
    return Reranked(first + reordered + rest, degraded=False)
