"""Editions of one regulation: which documents are one regulation, and which of them
counts (its current edition: the newest visible one with searchable text, as search's
``editions=latest``). The graph (:mod:`.graph`) and the consolidation
(:mod:`.consolidation`) both count on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from operator import or_

from django.db.models import Exists, OuterRef, QuerySet

from ingestion.models import HIDDEN_STATUSES, Chunk, Document

__all__ = [
    "RegulationId",
    "current_among",
    "current_edition",
    "current_editions",
    "editions",
    "is_current",
    "regulation_id",
]

RegulationId = tuple[str, str]  # (source_type, source_key)


def regulation_id(document: Document) -> RegulationId:
    return (document.source_type, document.source_key)


def editions(rid: RegulationId) -> QuerySet[Document]:
    source_type, source_key = rid
    return Document.objects.filter(Document.of_source(source_type, source_key))


def current_editions(rids: Iterable[RegulationId]) -> dict[RegulationId, Document]:
    """The current edition of each regulation that has a visible one, in one query: the
    newest visible edition with searchable text, else the newest visible one."""
    rids = set(rids)
    if not rids:
        return {}
    searchable = Chunk.objects.filter(document=OuterRef("pk"), indexed=True)
    rows = (
        Document.objects.filter(reduce(or_, (Document.of_source(*rid) for rid in rids)))
        .exclude(status__in=HIDDEN_STATUSES)
        .annotate(searchable=Exists(searchable))
        .order_by("-created_at", "-id")
    )
    newest: dict[RegulationId, Document] = {}
    newest_searchable: dict[RegulationId, Document] = {}
    for row in rows:
        newest.setdefault(regulation_id(row), row)
        if row.searchable:
            newest_searchable.setdefault(regulation_id(row), row)
    return newest | newest_searchable


def current_edition(rid: RegulationId) -> Document | None:
    return current_editions([rid]).get(rid)


def is_current(document: Document) -> bool:
    current = current_edition(regulation_id(document))
    return current is not None and current.pk == document.pk


def current_among(documents: Iterable[Document]) -> set[object]:
    """The pks of those documents that are their regulation's current edition (one query
    for all their regulations, however many of its relations are being read)."""
    documents = list(documents)
    current = current_editions(regulation_id(d) for d in documents)
    return {d.pk for d in documents if getattr(current.get(regulation_id(d)), "pk", None) == d.pk}
