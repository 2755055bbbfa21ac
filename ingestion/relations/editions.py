"""Editions of one regulation: which documents are one regulation, and which of them
counts (its current edition: the newest visible one with searchable text, as search's
``editions=latest``). The graph (:mod:`.graph`) and the consolidation
(:mod:`.consolidation`) both count on it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Exists, OuterRef, QuerySet

from ingestion.models import HIDDEN_STATUSES, Chunk, Document

__all__ = [
    "RegulationId",
    "current_among",
    "current_edition",
    "editions",
    "is_current",
    "regulation_id",
]

RegulationId = tuple[str, str]  # (source_type, source_key)


def regulation_id(document: Document) -> RegulationId:
    return (document.source_type, document.source_key)


def editions(rid: RegulationId) -> QuerySet[Document]:
    source_type, source_key = rid
    return Document.objects.filter(source_type=source_type, metadata__source_key=source_key)


def current_edition(rid: RegulationId) -> Document | None:
    """The newest visible edition with searchable text, else the newest visible one."""
    visible = editions(rid).exclude(status__in=HIDDEN_STATUSES).order_by("-created_at", "-id")
    searchable = Chunk.objects.filter(document=OuterRef("pk"), indexed=True)
    return visible.filter(Exists(searchable)).first() or visible.first()


def is_current(document: Document) -> bool:
    current = current_edition(regulation_id(document))
    return current is not None and current.pk == document.pk


def current_among(documents: Iterable[Document]) -> set[object]:
    """The pks of those documents that are their regulation's current edition (one lookup
    per regulation, however many of its relations are being read)."""
    by_regulation: dict[RegulationId, Document | None] = {}
    current: set[object] = set()
    for document in documents:
        rid = regulation_id(document)
        if rid not in by_regulation:
            by_regulation[rid] = current_edition(rid)
        edition = by_regulation[rid]
        if edition is not None and edition.pk == document.pk:
            current.add(document.pk)
    return current
