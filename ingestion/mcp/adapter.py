"""What the MCP tools answer, as plain JSON-able dicts, over the core's services.

Thin on purpose: search is :func:`ingestion.search.service.search`, status and relations
are :mod:`ingestion.relations.read`, units are the stored :class:`LegalUnit` rows. Every
function runs under the caller's :mod:`ingestion.visibility` grant (set by the server),
and every answer carries the exact citation, the text and a link to the reader page.
A reference that names nothing is a :class:`ToolInputError` whose message a person reads.

The wording in force after amendments, a unit's history and whether an amendment chain
is complete come from the consolidation service (:mod:`ingestion.relations.consolidated`:
``unit_in_force``, ``consolidated_regulation``). A regulation without stored versions
falls back to the amending regulations' own instructions (:mod:`ingestion.mcp.amendments`)
for which Pasal they change.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import connection

from ingestion.legal.references import QueryReference, parse_query_reference
from ingestion.legal.search import named_documents
from ingestion.mcp.amendments import document_changes
from ingestion.models import Chunk, Document
from ingestion.relations.consolidated import (
    ConsolidatedRegulation,
    RegulationNotFound,
    UnitNotFound,
    consolidated_regulation,
    unit_in_force,
)
from ingestion.relations.read import RelationView, document_status
from ingestion.search import sql as search_sql
from ingestion.search.service import SearchQuery, search
from ingestion.visibility import visible_ids

MAX_LIMIT = 50
_ORDINALS = {"kedua": 2, "ketiga": 3, "keempat": 4, "kelima": 5, "keenam": 6}


class ToolInputError(ValueError):
    """The caller's reference or argument names nothing; the message says what to send."""


@dataclass(frozen=True, slots=True)
class Links:
    """Where reader pages live (the server's own origin, from the MCP request)."""

    base_url: str = ""

    def document(self, document_id: str, chunk_id: int | None = None) -> str:
        url = f"{self.base_url.rstrip('/')}/documents/{document_id}/"
        return f"{url}#chunk-{chunk_id}" if chunk_id else url

    def reader(self, document_id: str, pasal: str | None = None) -> str:
        """The consolidated reader page, at the Pasal when one is named."""
        url = f"{self.base_url.rstrip('/')}/documents/{document_id}/konsolidasi/"
        return f"{url}#pasal-{pasal}" if pasal else url


def _parse_date(value: str | None) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ToolInputError(
            f"as_of '{value}' bukan tanggal YYYY-MM-DD / as_of must be a YYYY-MM-DD date"
        ) from None


# --- regulations ----------------------------------------------------------------------


def _reference(ref: str) -> QueryReference:
    reference = parse_query_reference(ref or "")
    regulation = reference.regulation
    if regulation is None or not (regulation.nomor and regulation.tahun):
        raise ToolInputError(
            f"Rujukan '{ref}' tidak dikenali; tulis misalnya 'UU 11/2008' atau "
            "'UU 13/2003 Pasal 59 ayat (4)' / unrecognised reference"
        )
    return reference


def regulation_of(ref: str) -> tuple[Document, QueryReference]:
    """The visible current edition of the regulation ``ref`` names."""
    reference = _reference(ref)
    ids = named_documents(reference, SearchQuery(text=ref, include_repealed=True))
    if not ids:
        raise ToolInputError(_absent((reference.regulation and reference.regulation.short) or ref))
    return Document.objects.get(pk=ids[0]), reference


def _absent(short: str) -> str:
    return f"{short} tidak ada di basis pengetahuan ini / not in this knowledge base"


def _relation(view: RelationView, links: Links) -> dict[str, Any]:
    return {
        "citation": view.citation,
        "title": view.title,
        "documentId": view.document_id,
        "link": links.document(view.document_id) if view.document_id else None,
    }


_KINDS = {"diubah": "amended", "disisipkan": "inserted", "dihapus": "deleted"}


def _hidden_amendments(view: ConsolidatedRegulation) -> set[str]:
    """Amending regulations in the stored consolidation the caller may not see."""
    ids = {a.document_id for a in view.amendments}
    return ids - visible_ids(ids)


def _consolidated_changes(view: ConsolidatedRegulation) -> dict[str, list[dict[str, Any]]]:
    """Per amending document: the Pasal it gave a wording (state, instruction)."""
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for pasal in view.pasals:
        for version in pasal.versions:
            changed = version.changed_by
            if changed is not None and changed.document_id:
                found[changed.document_id].append(
                    {"pasal": pasal.number, "kind": version.state, "evidence": changed.instruction}
                )
    return found


def _read_changes(document_id: str | None) -> list[dict[str, Any]]:
    """No stored consolidation: the amending text's own instructions."""
    document = Document.objects.filter(pk=document_id).first() if document_id else None
    changes = document_changes(document) if document is not None else []
    return [{"pasal": c.pasal, "kind": _KINDS[c.kind], "evidence": c.evidence} for c in changes]


def _ordinal(title: str) -> int:
    words = title.lower().split()
    for index, word in enumerate(words[:-1]):
        if word == "perubahan" and words[index + 1] in _ORDINALS:
            return _ORDINALS[words[index + 1]]
    return 1


def _why(source: str | None, status: Any, repealed: list[Any]) -> str:
    if repealed:
        return "Dicabut oleh " + ", ".join(r["citation"] for r in repealed)
    if source == "status_berlaku":
        return f"Status dari mitra (status_berlaku): {status.status_berlaku}"
    if status.in_force:
        return "Tidak ada peraturan pencabut di basis pengetahuan ini"
    return "Status berlaku tidak diketahui"


def _chain(
    amended: list[dict[str, Any]], view: ConsolidatedRegulation
) -> tuple[bool, list[str], str]:
    """Complete or not, what is missing, and why (the consolidation's word when it has one)."""
    if view.consolidated:
        note = (
            "Rangkaian perubahan lengkap di basis pengetahuan ini"
            if view.chain_complete
            else "Rangkaian perubahan tidak lengkap; tidak ada: " + ", ".join(view.missing)
        )
        return view.chain_complete, list(view.missing), note
    ordinals = [a["ordinal"] for a in amended]
    complete = ordinals == list(range(1, len(ordinals) + 1))
    note = (
        "Rangkaian perubahan lengkap di basis pengetahuan ini"
        if complete
        else "Ada perubahan yang tidak ada di basis pengetahuan ini (mis. 'Perubahan Kedua' "
        "tanpa perubahan pertama)"
    )
    return complete, [], note


def law_status(ref: str, links: Links) -> dict[str, Any]:
    """In force or not and why, the amendments (with the Pasal they change) and the
    repeals, the chain in order and whether it is complete in this knowledge base."""
    document, _ = regulation_of(ref)
    status = document_status(document)  # relations already limited to what may be seen
    view = consolidated_regulation(document)
    stored = _consolidated_changes(view) if view.consolidated else {}
    dates = {a.document_id: a.date for a in view.amendments}
    amended = []
    for relation in status.amended_by:
        body = _relation(relation, links)
        body["ordinal"] = _ordinal(relation.title or "")
        when = dates.get(relation.document_id or "")
        body["date"] = when.isoformat() if when else None
        body["changes"] = stored.get(relation.document_id or "") or _read_changes(
            relation.document_id
        )
        amended.append(body)
    amended.sort(key=lambda a: (a["date"] or "", a["ordinal"]))
    repealed = [_relation(r, links) for r in status.repealed_by]
    complete, missing, note = _chain(amended, view)
    citation = document.citation or document.title
    return {
        "citation": citation,
        "title": document.title,
        "documentId": str(document.pk),
        "link": links.reader(str(document.pk)),
        "inForce": status.in_force,
        "why": _why(status.source.value if status.source else None, status, repealed),
        "amendedBy": amended,
        "repealedBy": repealed,
        "chain": [citation, *(a["citation"] for a in amended)],
        "chainComplete": complete,
        "missing": missing,
        "chainNote": note,
        "consolidated": view.consolidated,
    }


# --- units ------------------------------------------------------------------------------


def get_unit(ref: str, as_of: str | None, links: Links) -> dict[str, Any]:
    """ "UU 13/2003 Pasal 59 ayat (4)" → the text in force on ``as_of`` (today), its state
    (original, amended, inserted, deleted), ``changedBy`` and its history: what
    ``GET /api/units`` answers, plus the reader link and the regulation's own status."""
    on = _parse_date(as_of)
    reference = _reference(ref)
    if reference.unit is None:
        raise ToolInputError(
            f"Rujukan '{ref}' tidak menyebut pasal; tulis misalnya 'UU 13/2003 Pasal 59 ayat "
            "(4)' / name a Pasal"
        )
    try:
        view = unit_in_force(ref, on)
    except RegulationNotFound as exc:
        raise ToolInputError(_absent(exc.short)) from None
    except UnitNotFound as exc:
        raise ToolInputError(f"{exc} / no such unit here") from None
    body = view.to_json()
    body["link"] = links.reader(view.document_id, view.pasal.number)
    body["regulationInForce"] = view.regulation_in_force
    return body


# --- search and listing -----------------------------------------------------------------


def run_search(arguments: dict[str, Any], links: Links) -> dict[str, Any]:
    query = SearchQuery(
        as_of=_parse_date(arguments.get("as_of")),
        text=arguments["query"],
        limit=max(1, min(int(arguments.get("limit") or 10), MAX_LIMIT)),
        source_type=arguments.get("source_type"),
        tahun=arguments.get("tahun"),
        wilayah=arguments.get("wilayah"),
        jenis=arguments.get("jenis"),
        include_repealed=bool(arguments.get("include_repealed")),
    )
    response = search(query)
    return {
        "results": [
            {
                "citation": hit.citation or hit.title,
                "citationFull": hit.citation_full or hit.citation or hit.title,
                "title": hit.title,
                "text": hit.unit_text or hit.text,
                "inForce": hit.in_force,
                "changedBy": hit.changed_by,
                "validFrom": hit.valid_from,
                "amendedBy": hit.amended_by,
                "repealedBy": hit.repealed_by,
                "link": links.document(hit.document_id, hit.chunk_id),
                "sourceUrl": hit.source_url,
                "documentId": hit.document_id,
                "score": hit.score,
            }
            for hit in response.results
        ],
        "degraded": response.degraded.value if response.degraded else None,
        "namedRegulationMissing": response.named_regulation_missing,
    }


def list_regulations(arguments: dict[str, Any], links: Links) -> dict[str, Any]:
    """Regulations here (visible, current editions), filtered; ``q`` matches the title."""
    query = SearchQuery(
        text=arguments.get("q") or "",
        jenis=arguments.get("jenis"),
        tahun=arguments.get("tahun"),
        wilayah=arguments.get("wilayah"),
        include_repealed=True,
    )
    where, params = search_sql.document_filter(query)
    clauses = [where, "d.citation <> ''"]
    if query.text.strip():
        clauses.append(
            "(d.title_search @@ plainto_tsquery('indonesian', %(q)s) OR d.citation ILIKE %(like)s)"
        )
        params |= {"q": query.text, "like": f"%{query.text.strip()}%"}
    params["n"] = max(1, min(int(arguments.get("limit") or 20), MAX_LIMIT))
    sql = (
        "SELECT d.id, d.citation, d.title, d.in_force FROM documents d WHERE "
        + " AND ".join(clauses)
        + " ORDER BY d.citation, d.id LIMIT %(n)s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return {
        "regulations": [
            {
                "citation": citation,
                "title": title,
                "inForce": in_force,
                "documentId": str(pk),
                "link": links.document(str(pk)),
            }
            for pk, citation, title, in_force in rows
        ]
    }


_RESOURCE_REF = re.compile(r"^[A-Za-z][A-Za-z .]*$")


def consolidated_text(jenis: str, tahun: str, nomor: str, links: Links) -> str:
    """``regulation://UU/2008/11``: the consolidated text in force today (plain text, the
    no-legal-force notice first), with the reader link. If an amending regulation in the
    stored consolidation is hidden from the caller, the regulation's own text is answered,
    so no wording of it is quoted."""
    if not _RESOURCE_REF.match(jenis or ""):
        raise ToolInputError(f"Jenis '{jenis}' tidak dikenali / unknown jenis")
    document, _ = regulation_of(f"{jenis} {nomor}/{tahun}")
    view = consolidated_regulation(document)
    link = f"Halaman baca: {links.reader(view.document_id)}"
    if not _hidden_amendments(view):
        return f"{view.as_text()}\n{link}\n"
    chunks = Chunk.objects.filter(document_id=view.document_id, indexed=True).order_by("ordinal")
    return "\n".join([view.citation or view.title, link, "", *(c.text for c in chunks)])


__all__ = [
    "Links",
    "ToolInputError",
    "consolidated_text",
    "get_unit",
    "law_status",
    "list_regulations",
    "run_search",
]
