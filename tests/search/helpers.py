"""Building searchable documents directly in the database, and a small honest embedder.

``HashEmbedder`` is a real ``Embedder``: a hashed bag of words, so texts sharing words are
near each other. It keeps search tests fast and deterministic without the e5 model.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection

from ingestion.legal.identity import title_labels
from ingestion.models import Chunk, Document, DocumentStatus, SourceType
from ingestion.pipeline.embed import Embedder, EmbeddingUnavailable, passage_text
from ingestion.search.lexical import reset_term_stats

_WORD = re.compile(r"\w+", re.UNICODE)


@contextmanager
def fresh_term_stats() -> Iterator[None]:
    """BM25's IDFs come from the planner's statistics: ANALYZE the chunks just added, and
    drop the cached statistics before and after."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ingestion_chunk")
    reset_term_stats()
    try:
        yield
    finally:
        reset_term_stats()


def hashed_vector(text: str, dim: int) -> list[float]:
    vector = [0.0] * dim
    for word in _WORD.findall(text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        index = int.from_bytes(digest[:4], "big") % dim
        vector[index] += 1.0 if digest[4] % 2 else -1.0
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


class HashEmbedder(Embedder):
    model_id = "test-hash-v1"

    def _passages(self, texts: list[str]) -> list[list[float]]:
        return [hashed_vector(t, settings.EMBEDDING_DIM) for t in texts]

    def _query(self, text: str, *, interactive: bool) -> list[float]:
        return hashed_vector(text, settings.EMBEDDING_DIM)


class UnavailableEmbedder(HashEmbedder):
    """The model is busy: every query embedding is refused, as a gateway 429 would."""

    calls = 0

    def _query(self, text: str, *, interactive: bool) -> list[float]:
        self.calls += 1
        raise EmbeddingUnavailable("Model embedding sedang penuh", code="backpressure")


def make_document(
    title: str,
    *,
    source_key: str | None = None,
    source_version: str = "1",
    source_type: str = SourceType.JDIH,
    status: str = DocumentStatus.INDEXED,
    source: dict[str, Any] | None = None,
    created_at: datetime | None = None,
) -> Document:
    key = source_key or hashlib.sha256(title.encode()).hexdigest()[:16]
    document = Document.objects.create(
        source_type=source_type,
        title=title,
        title_labels=title_labels(title, source or {}),
        file_name=f"{key}.pdf",
        mime_type="application/pdf",
        format="pdf",
        storage_key=f"docs/{key}.pdf",
        checksum=hashlib.sha256(f"{key}:{source_version}".encode()).hexdigest(),
        status=status,
        metadata={"source_key": key, "source_version": source_version, "source": source or {}},
    )
    if created_at is not None:
        Document.objects.filter(pk=document.pk).update(created_at=created_at)
        document.refresh_from_db()
    return document


def add_chunk(
    document: Document,
    text: str,
    *,
    heading_path: str = "",
    pages: tuple[int, int] = (1, 1),
    indexed: bool = True,
    embedder: Embedder | None = None,
) -> Chunk:
    model = embedder or HashEmbedder()
    ordinal = document.chunks.count()
    return Chunk.objects.create(
        document=document,
        ordinal=ordinal,
        text=text,
        heading_path=heading_path,
        page_from=pages[0],
        page_to=pages[1],
        indexed=indexed,
        review_state="pending" if not indexed else "",
        embedding=model.embed_passages([passage_text(heading_path, text)])[0],
        embedding_model=model.model_id,
    )
