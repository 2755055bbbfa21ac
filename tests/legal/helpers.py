"""Indexing real corpus regulations (parse → chunk → index) for the legal tests."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from ingestion.models import Document, DocumentStatus, SourceType
from ingestion.pipeline.chunk import chunk_document
from ingestion.pipeline.index import write_document
from ingestion.pipeline.parse import ParseLimits, parse
from tests.corpus import CORPUS

IndexRegulation = Callable[..., Document]


def corpus_file(relative: str) -> Path:
    path = CORPUS / relative
    if not path.exists():
        pytest.skip("corpus absent")
    return path


def _vector(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [(digest[i % len(digest)] - 127.5) / 128.0 for i in range(settings.EMBEDDING_DIM)]


def index_corpus_regulation(
    relative: str, fmt: str, title: str, source: dict[str, Any] | None = None
) -> Document:
    """Index one corpus file through the real chunker and index stage; returns the document."""
    path = corpus_file(relative)
    parsed = parse(path, fmt, ParseLimits())
    drafts = chunk_document(parsed.blocks, budget_tokens=350, overlap_tokens=40)
    key = hashlib.sha256(relative.encode()).hexdigest()[:16]
    document = Document.objects.create(
        source_type=SourceType.JDIH,
        title=title,
        file_name=path.name,
        mime_type="application/octet-stream",
        format=fmt,
        storage_key=f"corpus/{path.name}",
        checksum=key,
        status=DocumentStatus.PROCESSING,
        metadata={"source_key": key, "source_version": "1", "source": source or {}},
    )
    write_document(
        document,
        drafts,
        [_vector(d.text) for d in drafts],
        model_id="test-hash-v1",
        threshold=0.0,
        page_count=parsed.page_count,
    )
    document.refresh_from_db()
    return document
