"""Store a regulation's relations, link them, and recompute in-force status.

:func:`refresh_document` is the one entry point (the pipeline after indexing, a metadata
merge, an archive, ``relink_regulations``). It re-reads the document's stored chunks,
replaces the relations of that edition, sets the document's regulation key, re-links
every relation that targets this regulation (so a target that arrives after its repealer
is linked then), recomputes ``in_force`` for every regulation touched and rebuilds
their consolidated text (:mod:`.consolidation`).

Graph updates take one transaction-level advisory lock: two workers indexing related
regulations at once would otherwise each recompute a status from a snapshot that misses
the other's relations.

Editions of one source key are one regulation: relations count from its current edition
(the newest visible one with searchable text, as search's ``editions=latest``), links
point at the target's current edition, and ``in_force`` is the same on every edition.
"""

from __future__ import annotations

import logging
import time
import zlib
from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import Q

from ingestion.labels import labels_for
from ingestion.legal.citation import RegulationRef
from ingestion.legal.identity import document_identity, is_identified, opening_of
from ingestion.legal.in_force import decide, partner_in_force
from ingestion.legal.relations import (
    FoundRelation,
    SectionText,
    extract_relations,
    match_key,
    region_key,
)
from ingestion.models import HIDDEN_STATUSES, Document, RegulationRelation, RelationKind
from ingestion.relations.consolidation import rebuild as rebuild_consolidations
from ingestion.relations.editions import (
    RegulationId,
    current_among,
    current_edition,
    editions,
    regulation_id,
)
from ingestion.visibility import visible_ids

log = logging.getLogger(__name__)

_GRAPH_LOCK = zlib.crc32(b"aceh-rag:regulation-graph")


# --- reading the stored text -----------------------------------------------------------


def sections_of(document: Document) -> list[SectionText]:
    rows = document.chunks.order_by("ordinal").values_list("heading_path", "text", "page_from")
    return [SectionText(path, text, page) for path, text, page in rows]


def own_ref(document: Document, sections: list[SectionText]) -> RegulationRef | None:
    """The document's regulation (:func:`ingestion.legal.identity.document_identity`),
    read from its sourceMetadata, its printed heading and its title."""
    return document_identity(document.title, document.source, _opening(sections))


def _opening(sections: list[SectionText]) -> str:
    return opening_of((section.path, section.text) for section in sections)


def _has_articles(sections: Iterable[SectionText]) -> bool:
    return any("Pasal " in section.path for section in sections)


# --- the entry point -------------------------------------------------------------------


def refresh_document(document: Document) -> list[RegulationRelation]:
    """Re-extract one document's relations and relink everything they touch."""
    started = time.monotonic()
    with transaction.atomic():
        _lock_graph()
        doc = Document.objects.select_for_update().get(pk=document.pk)
        rid = regulation_id(doc)
        touched = _targets_of_regulation(rid) | {rid}
        rows = _store(doc)
        touched |= _relink_arrivals(doc)
        # The other editions' targets were read above, and a relation the relink moved
        # reports its old and new targets itself: what is new is this edition's rows
        # (one query fewer on every ingest).
        touched |= {regulation_id(r.target_document) for r in rows if r.target_document}
        for other in with_copies(touched):
            recompute_in_force(other)
        rebuild_consolidations(touched)
    log.info(
        "relations: %s → %s relations, %s regulations recomputed in %.3fs",
        doc.pk,
        len(rows),
        len(touched),
        time.monotonic() - started,
    )
    return rows


def reconsolidate(documents: Iterable[Document]) -> None:
    """Rebuild the consolidated texts of these documents' regulations, under the graph lock:
    for an import that wrote documents and relations as rows instead of through the pipeline."""
    _lock_graph()
    rebuild_consolidations({regulation_id(d) for d in documents})


def _lock_graph() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_GRAPH_LOCK])


def _store(doc: Document) -> list[RegulationRelation]:
    sections = sections_of(doc)
    own = own_ref(doc, sections)
    regulation = is_identified(own) or _has_articles(sections)
    found = extract_relations(doc.title, sections, own) if regulation else []
    _save_identity(doc, own)
    doc.relations_out.all().delete()
    rows = RegulationRelation.objects.bulk_create([_row(doc, f) for f in found])
    for row in rows:
        row.target_document = resolve_target(row)
    RegulationRelation.objects.bulk_update(rows, ["target_document"])
    return rows


def _save_identity(doc: Document, own: RegulationRef | None) -> None:
    """The document's regulation key, citation and title labels, from one identity (a
    relink also brings documents indexed under older rules up to date)."""
    key = match_key(own) if own is not None and is_identified(own) else ""
    values = {
        "regulation_key": key,
        "regulation_region": region_key(own) if key and own else "",
        "citation": (own.short if own else None) or doc.citation,
        "title_labels": labels_for(doc.title, own, doc.source),
    }
    changed = [name for name, value in values.items() if getattr(doc, name) != value]
    if changed:
        for name in changed:
            setattr(doc, name, values[name])
        doc.save(update_fields=[*changed, "updated_at"])


def _row(doc: Document, found: FoundRelation) -> RegulationRelation:
    target = found.target
    return RegulationRelation(
        source_document=doc,
        kind=found.kind,
        target_citation=found.citation[:200],
        target_jenis=(target.jenis or "")[:100],
        target_nomor=(target.nomor or "")[:40],
        target_tahun=(target.tahun or "")[:4],
        target_region=(target.region or "")[:100],
        target_title=found.title or "",
        target_key=match_key(target),
        part=found.part,
        evidence=found.evidence,
        evidence_start=found.span[0],
        evidence_end=found.span[1],
        page=found.page,
    )


# --- links -----------------------------------------------------------------------------


def resolve_target(relation: RegulationRelation) -> Document | None:
    """The current edition of the regulation the relation names, when it is here.

    Matched on jenis, nomor, tahun, and region when both sides know it. Two regions
    that could both be meant (a target without region) are ambiguous: no link.
    """
    source = relation.source_document
    candidates = (
        Document.objects.filter(regulation_key=relation.target_key)
        .exclude(status__in=HIDDEN_STATUSES)
        .exclude(source_type=source.source_type, metadata__source_key=source.source_key)
    )
    region = relation.target_region.casefold()
    if region:
        candidates = candidates.filter(Q(regulation_region=region) | Q(regulation_region=""))
    found = list(candidates.order_by("-created_at", "-id"))
    regions = {d.regulation_region for d in found if d.regulation_region}
    if not region and len(regions) > 1:
        return None
    exact = [d for d in found if d.regulation_region == region] or found
    return current_edition(regulation_id(exact[0])) if exact else None


def _relink_arrivals(doc: Document) -> set[RegulationId]:
    """Relations elsewhere that name this regulation, or point at one of its editions."""
    rid = regulation_id(doc)
    named = Q(target_document__in=editions(rid))
    if doc.regulation_key:
        named |= Q(target_key=doc.regulation_key)
    touched: set[RegulationId] = set()
    for relation in RegulationRelation.objects.filter(named).select_related(
        "source_document", "target_document"
    ):
        before = relation.target_document
        after = resolve_target(relation)
        if (before.pk if before else None) != (after.pk if after else None):
            relation.target_document = after
            relation.save(update_fields=["target_document"])
        touched |= {regulation_id(d) for d in (before, after) if d is not None}
    return touched


def _targets_of_regulation(rid: RegulationId) -> set[RegulationId]:
    targets = RegulationRelation.objects.filter(
        source_document__in=editions(rid), target_document__isnull=False
    ).values_list("target_document__source_type", "target_document__metadata__source_key")
    return {(str(t), str(k)) for t, k in targets}


# --- in force --------------------------------------------------------------------------


def copies_of(rid: RegulationId) -> set[RegulationId]:
    """The sources holding the same regulation as ``rid`` (same regulation key and region:
    a JDIH portal's copy and an imported one), ``rid`` included."""
    current = current_edition(rid)
    if current is None or not current.regulation_key:
        return {rid}
    same = (
        Document.objects.filter(
            regulation_key=current.regulation_key, regulation_region=current.regulation_region
        )
        .exclude(status__in=HIDDEN_STATUSES)
        .values_list("source_type", "metadata__source_key")
    )
    return {rid} | {(str(t), str(k)) for t, k in same}


def with_copies(regulations: Iterable[RegulationId]) -> set[RegulationId]:
    found: set[RegulationId] = set()
    for rid in regulations:
        found |= copies_of(rid)
    return found


def repealed_by(rid: RegulationId) -> list[RegulationRelation]:
    """The repeals, stated by the current edition of a regulation here, that name ``rid``
    or another copy of the same regulation (a repeal linked to one copy repeals all)."""
    targets = Q()
    for copy in copies_of(rid):
        targets |= Q(target_document__in=editions(copy))
    relations = RegulationRelation.objects.filter(
        targets, kind=RelationKind.REPEALS
    ).select_related("source_document")
    found = list(relations)
    current = current_among(r.source_document for r in found)
    return [r for r in found if r.source_document_id in current]


def recompute_in_force(rid: RegulationId) -> bool | None:
    current = current_edition(rid)
    if current is None:
        return None
    is_regulation = (
        bool(current.regulation_key)
        or current.chunks.filter(heading_path__contains="Pasal ").exists()
    )
    value, _source = decide(
        partner_in_force(current.source.get("status_berlaku")),
        repealed=bool(repealed_by(rid)),
        is_regulation=is_regulation,
    )
    editions(rid).update(in_force=value)
    return value


def other_copies(document: Document) -> list[Document]:
    """The current editions of the other sources holding this document's regulation
    (the document page lists them; search answers from the best one)."""
    rid = regulation_id(document)
    others = [current_edition(copy) for copy in sorted(copies_of(rid) - {rid})]
    shown = visible_ids(d.pk for d in others if d is not None)
    return [d for d in others if d is not None and str(d.pk) in shown]
