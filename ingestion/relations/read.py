"""The regulation graph as readers see it: a document's relations both ways, its in-force
status with what decided it, and the amend/repeal notes of search results."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from ingestion.legal.in_force import InForceSource, partner_in_force
from ingestion.models import Document, RegulationRelation, RelationKind
from ingestion.relations.graph import (
    RegulationId,
    current_among,
    current_edition,
    editions,
    regulation_id,
)
from ingestion.visibility import visible_ids

REVERSE = {RelationKind.AMENDS: "amended_by", RelationKind.REPEALS: "repealed_by"}


@dataclass(frozen=True, slots=True)
class RelationView:
    kind: str  # amends | repeals | amended_by | repealed_by
    citation: str
    title: str | None
    document_id: str | None
    evidence: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "citation": self.citation,
            "title": self.title,
            "documentId": self.document_id,
        }


@dataclass(frozen=True, slots=True)
class StatusView:
    """``in_force`` and what decided it; the partner's word and the relations' both kept."""

    in_force: bool | None
    source: InForceSource | None
    status_berlaku: str | None
    relations: list[RelationView] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[RelationView]:
        return [r for r in self.relations if r.kind == kind]

    @property
    def amends(self) -> list[RelationView]:
        return self.of_kind("amends")

    @property
    def repeals(self) -> list[RelationView]:
        return self.of_kind("repeals")

    @property
    def amended_by(self) -> list[RelationView]:
        return self.of_kind("amended_by")

    @property
    def repealed_by(self) -> list[RelationView]:
        return self.of_kind("repealed_by")

    @property
    def relations_say(self) -> bool | None:
        """What the relations alone say (shown when the partner's value overrides it)."""
        if self.repealed_by:
            return False
        return True if self.in_force is not None else None


def citation_of(document: Document) -> str:
    """A document's short citation, else its title."""
    return getattr(document, "citation", "") or document.title


def document_relations(document: Document, current: Document | None = None) -> list[RelationView]:
    """Outgoing relations (of the regulation's current edition) and incoming ones, read in
    one query."""
    rid = regulation_id(document)
    current = current or current_edition(rid) or document
    rows = list(
        RegulationRelation.objects.filter(
            Q(source_document=current) | Q(target_document__in=editions(rid))
        )
        .select_related("source_document")
        .order_by("kind", "id")
    )
    sources = current_among(r.source_document for r in rows if r.source_document_id != current.pk)
    # A document the caller may not see is neither linked nor cited (ingestion.visibility).
    seen = visible_ids([r.target_document_id for r in rows] + list(sources))
    outgoing: list[RelationView] = []
    incoming: list[RelationView] = []
    for r in rows:
        if r.source_document_id == current.pk:
            outgoing.append(
                RelationView(
                    kind=r.kind,
                    citation=r.target_citation,
                    title=r.target_title or None,
                    document_id=(
                        str(r.target_document_id) if str(r.target_document_id) in seen else None
                    ),
                    evidence=r.evidence,
                )
            )
        elif r.source_document_id in sources and str(r.source_document_id) in seen:
            incoming.append(
                RelationView(
                    kind=REVERSE[RelationKind(r.kind)],
                    citation=citation_of(r.source_document),
                    title=r.source_document.title,
                    document_id=str(r.source_document_id),
                    evidence=r.evidence,
                )
            )
    return outgoing + incoming


def document_status(document: Document) -> StatusView:
    """The stored ``in_force`` (what search uses) with the facts behind it."""
    current = current_edition(regulation_id(document)) or document
    raw = current.source.get("status_berlaku")
    if partner_in_force(raw) is not None:
        source: InForceSource | None = InForceSource.PARTNER
    else:
        source = InForceSource.RELATIONS if document.in_force is not None else None
    return StatusView(
        in_force=document.in_force,
        source=source,
        status_berlaku=raw.strip() if isinstance(raw, str) and raw.strip() else None,
        relations=document_relations(document, current),
    )


@dataclass(slots=True)
class HitNotes:
    amended_by: list[str] = field(default_factory=list)
    repealed_by: list[str] = field(default_factory=list)


def hit_notes(regulations: Iterable[RegulationId]) -> dict[RegulationId, HitNotes]:
    """For search results: which regulations here amend or repeal each one (citations)."""
    wanted = set(regulations)
    if not wanted:
        return {}
    keys = Q()
    for source_type, source_key in wanted:
        keys |= Document.of_source(source_type, source_key)
    targets = Document.objects.filter(keys).values("pk")
    relations = RegulationRelation.objects.filter(target_document__in=targets).select_related(
        "source_document", "target_document"
    )
    found = list(relations)
    sources = current_among(r.source_document for r in found)
    seen = visible_ids(sources)  # a hidden amending regulation is never cited
    sources = {pk for pk in sources if str(pk) in seen}
    notes: dict[RegulationId, HitNotes] = defaultdict(HitNotes)
    for relation in found:
        if relation.target_document is None or relation.source_document_id not in sources:
            continue
        note = notes[regulation_id(relation.target_document)]
        citation = citation_of(relation.source_document)
        bucket = note.amended_by if relation.kind == RelationKind.AMENDS else note.repealed_by
        if citation not in bucket:
            bucket.append(citation)
    return dict(notes)
