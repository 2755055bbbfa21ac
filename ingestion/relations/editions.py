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


def current_edition(rid: RegulationId) -> Document | None:
    """The newest visible edition with searchable text, else the newest visible one."""
    visible = editions(rid).exclude(status__in=HIDDEN_STATUSES).order_by("-created_at", "-id")
    searchable = Chunk.objects.filter(document=OuterRef("pk"), indexed=True)
    return visible.filter(Exists(searchable)).first() or visible.first()


def is_current(document: Document) -> bool:
    current = current_edition(regulation_id(document))
    return current is not None and current.pk == document.pk


def current_among(documents: Iterable[Document]) -> set[object]:
    """The pks of those documents that are their regulation's current edition (one query
    for all their regulations, however many of its relations are being read)."""
    documents = list(documents)
    rids = {regulation_id(d) for d in documents}
    if not rids:
        return set()
    searchable = Chunk.objects.filter(document=OuterRef("pk"), indexed=True)
    rows = (
        Document.objects.filter(reduce(or_, (Document.of_source(*rid) for rid in rids)))
        .exclude(status__in=HIDDEN_STATUSES)
        .annotate(searchable=Exists(searchable))
        .order_by("-created_at", "-id")
        .only("pk", "source_type", "metadata")
    )
    newest: dict[RegulationId, object] = {}
    newest_searchable: dict[RegulationId, object] = {}
    for row in rows:  # as current_edition: the newest searchable, else the newest
        newest.setdefault(regulation_id(row), row.pk)
        if row.searchable:
            newest_searchable.setdefault(regulation_id(row), row.pk)
    current = {rid: newest_searchable.get(rid, newest.get(rid)) for rid in rids}
    return {d.pk for d in documents if current[regulation_id(d)] == d.pk}
