"""What the MCP tools answer, as plain JSON-able dicts, over the core's services.

Thin on purpose: search is :func:`ingestion.search.service.search`, status and relations
are :mod:`ingestion.relations.read`, units are the stored :class:`LegalUnit` rows. Every
function runs under the caller's :mod:`ingestion.visibility` grant (set by the server),
and every answer carries the exact citation, the text and a link to the reader page.
A reference that names nothing is a :class:`ToolInputError` whose message a person reads.

The wording in force after amendments comes from the consolidation work (branch
consol-store); until it is wired here, ``get_unit`` gives the unit's own text and says
which amending regulation changes it (:mod:`ingestion.mcp.amendments`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import connection

from ingestion.legal.references import QueryReference, parse_query_reference
from ingestion.legal.search import named_documents, named_units
from ingestion.mcp.amendments import Change, document_changes
from ingestion.models import Chunk, Document, LegalUnit
from ingestion.relations.read import RelationView, document_status
from ingestion.search import sql as search_sql
from ingestion.search.service import SearchQuery, search

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
        short = reference.regulation.short if reference.regulation else ref
        raise ToolInputError(
            f"{short} tidak ada di basis pengetahuan ini / not in this knowledge base"
        )
    return Document.objects.get(pk=ids[0]), reference


def _relation(view: RelationView, links: Links) -> dict[str, Any]:
    return {
        "citation": view.citation,
        "title": view.title,
        "documentId": view.document_id,
        "link": links.document(view.document_id) if view.document_id else None,
    }


def _ordinal(title: str) -> int:
    words = title.lower().split()
    for index, word in enumerate(words[:-1]):
        if word == "perubahan" and words[index + 1] in _ORDINALS:
            return _ORDINALS[words[index + 1]]
    return 1


def _amendment(view: RelationView, links: Links) -> dict[str, Any]:
    body = _relation(view, links)
    document = Document.objects.filter(pk=view.document_id).first() if view.document_id else None
    changes = document_changes(document) if document is not None else []
    body["ordinal"] = _ordinal(view.title or "")
    body["changes"] = [{"pasal": c.pasal, "kind": c.kind, "evidence": c.evidence} for c in changes]
    return body


def _why(in_force: bool | None, source: str | None, status: Any, repealed: list[Any]) -> str:
    if repealed:
        return "Dicabut oleh " + ", ".join(r["citation"] for r in repealed)
    if source == "status_berlaku":
        return f"Status dari mitra (status_berlaku): {status.status_berlaku}"
    if in_force:
        return "Tidak ada peraturan pencabut di basis pengetahuan ini"
    return "Status berlaku tidak diketahui"


def law_status(ref: str, links: Links) -> dict[str, Any]:
    """In force or not and why, the amendments (with the Pasal they change) and the
    repeals, the chain in order and whether it is complete in this knowledge base."""
    document, _ = regulation_of(ref)
    status = document_status(document)
    source = status.source.value if status.source else None
    amended = sorted(
        (_amendment(view, links) for view in status.amended_by), key=lambda a: a["ordinal"]
    )
    repealed = [_relation(view, links) for view in status.repealed_by]
    ordinals = [a["ordinal"] for a in amended]
    complete = ordinals == list(range(1, len(ordinals) + 1))
    citation = document.citation or document.title
    return {
        "citation": citation,
        "title": document.title,
        "documentId": str(document.pk),
        "link": links.document(str(document.pk)),
        "inForce": status.in_force,
        "why": _why(status.in_force, source, status, repealed),
        "amendedBy": amended,
        "repealedBy": repealed,
        "chain": [citation, *(a["citation"] for a in amended)],
        "chainComplete": complete,
        "chainNote": (
            "Rangkaian perubahan lengkap di basis pengetahuan ini"
            if complete
            else "Ada perubahan yang tidak ada di basis pengetahuan ini (mis. 'Perubahan Kedua' "
            "tanpa perubahan pertama)"
        ),
    }


# --- units ------------------------------------------------------------------------------


def _unit_changes(pasal: str, amendments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    wanted = pasal.replace(" ", "").upper()
    found = []
    for amendment in amendments:
        for change in amendment["changes"]:
            if change["pasal"] == wanted:
                found.append(
                    {
                        "citation": amendment["citation"],
                        "documentId": amendment["documentId"],
                        "link": amendment["link"],
                        **change,
                    }
                )
    return found


def _new_wording(change: dict[str, Any], unit: LegalUnit) -> str | None:
    """The amending regulation's own text of the unit ("… sehingga berbunyi: Pasal 5 …")."""
    document_id = change.get("documentId")
    if change.get("kind") == "dihapus" or not document_id:
        return None
    row = (
        LegalUnit.objects.filter(
            document_id=document_id,
            pasal=unit.pasal,
            ayat=unit.ayat,
            huruf=unit.huruf,
            angka=unit.angka,
            penjelasan=False,
        )
        .order_by("-start")
        .first()
    )
    return row.text if row is not None else None


def get_unit(ref: str, as_of: str | None, links: Links) -> dict[str, Any]:
    """ "UU 13/2003 Pasal 59 ayat (4)" → the unit's text, its state and what changed it."""
    _parse_date(as_of)
    document, reference = regulation_of(ref)
    if reference.unit is None:
        raise ToolInputError(
            f"Rujukan '{ref}' tidak menyebut pasal; tulis misalnya 'UU 13/2003 Pasal 59 ayat "
            "(4)' / name a Pasal"
        )
    units = named_units(reference.unit, [str(document.pk)])
    citation = document.citation or document.title
    label = reference.unit.label
    if not units:
        raise ToolInputError(f"{label} tidak ada dalam {citation} / no such unit")
    unit = LegalUnit.objects.get(pk=units[0].id)
    status = law_status(citation, links) if document.citation else None
    changes = _unit_changes(unit.pasal, status["amendedBy"]) if status else []
    latest = changes[-1] if changes else None
    wording = _new_wording(latest, unit) if latest else None
    state = "dicabut" if document.in_force is False else (latest["kind"] if latest else "berlaku")
    return {
        "citation": f"{citation} {unit.label}",
        "documentId": str(document.pk),
        "link": links.document(str(document.pk), unit.chunk_id),
        "state": state,
        "text": wording or unit.text,
        "textSource": "amending_regulation" if wording else "original",
        "originalText": unit.text,
        "changedBy": [c["citation"] for c in changes],
        "history": changes,
        "asOf": as_of,
        "page": unit.page,
    }


# --- search and listing -----------------------------------------------------------------


def run_search(arguments: dict[str, Any], links: Links) -> dict[str, Any]:
    _parse_date(arguments.get("as_of"))
    query = SearchQuery(
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
                "title": hit.title,
                "text": hit.unit_text or hit.text,
                "inForce": hit.in_force,
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
    """``regulation://UU/2008/11``: the regulation's text with its status on top (markdown).

    Until the consolidation store is wired, the text is the regulation's own, with the
    amended Pasal listed so no reader takes it for the wording in force."""
    if not _RESOURCE_REF.match(jenis or ""):
        raise ToolInputError(f"Jenis '{jenis}' tidak dikenali / unknown jenis")
    status = law_status(f"{jenis} {nomor}/{tahun}", links)
    chunks = Chunk.objects.filter(document_id=status["documentId"], indexed=True).order_by(
        "ordinal"
    )
    lines = [
        f"# {status['citation']}: {status['title']}",
        "",
        f"Status: {'berlaku' if status['inForce'] else 'tidak berlaku / tidak diketahui'} — "
        f"{status['why']}",
        f"Halaman baca: {status['link']}",
    ]
    for amendment in status["amendedBy"]:
        changed = ", ".join(f"Pasal {c['pasal']} ({c['kind']})" for c in amendment["changes"])
        lines.append(f"Diubah oleh {amendment['citation']}: {changed or '-'}")
    lines.append("")
    lines += [chunk.text for chunk in chunks]
    return "\n".join(lines)


__all__ = [
    "Change",
    "Links",
    "ToolInputError",
    "consolidated_text",
    "get_unit",
    "law_status",
    "list_regulations",
    "run_search",
]
