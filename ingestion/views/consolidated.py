"""The regulation reader: every Pasal in its wording in force on a date, with its history.

One view serves the page and, for htmx (the date picker), the partial it swaps in.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import date
from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from ingestion.models import Document
from ingestion.relations.consolidated import (
    NOTICE,
    PasalView,
    consolidated_regulation,
    today,
)
from ingestion.views.common import is_htmx, page

_BADGE = {
    "amended": "diubah dengan",
    "inserted": "disisipkan oleh",
    "deleted": "dihapus oleh",
}


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of words of a diff: ``equal``, ``delete`` (old wording) or ``insert`` (new)."""

    kind: str
    text: str


def word_diff(old: str, new: str) -> list[Piece]:
    """The word-level changes from ``old`` to ``new`` (difflib's matching blocks)."""
    before, after = old.split(), new.split()
    pieces: list[Piece] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            pieces.append(Piece("equal", " ".join(before[a1:a2])))
            continue
        if a2 > a1:
            pieces.append(Piece("delete", " ".join(before[a1:a2])))
        if b2 > b1:
            pieces.append(Piece("insert", " ".join(after[b1:b2])))
    return pieces


def _as_of(request: HttpRequest) -> tuple[date, str | None]:
    """The ``as_of`` asked for (today when absent), and the message when it is not a date."""
    raw = (request.GET.get("as_of") or "").strip()
    if not raw:
        return today(), None
    try:
        return date.fromisoformat(raw), None
    except ValueError:
        return today(), f"Tanggal \u201c{raw}\u201d tidak dikenali; dipakai tanggal hari ini."


def _badge(pasal: PasalView) -> dict[str, Any] | None:
    verb = _BADGE.get(pasal.state or "")
    if verb is None or not pasal.changed_by:
        return None
    last = pasal.changed_by[-1]
    return {"state": pasal.state, "verb": verb, "by": last}


def _history(pasal: PasalView) -> list[dict[str, Any]]:
    rows = []
    for index, version in enumerate(pasal.versions):
        previous = pasal.versions[index - 1].text if index else None
        rows.append(
            {
                "version": version,
                "diff": word_diff(previous, version.text) if previous is not None else None,
            }
        )
    return rows


@login_required
def regulation_reader(request: HttpRequest, pk: UUID) -> HttpResponse:
    document = get_object_or_404(Document, pk=pk)
    on, error = _as_of(request)
    view = consolidated_regulation(document, on)
    outline = [
        (
            bab,
            [{"pasal": p, "badge": _badge(p), "history": _history(p)} for p in pasals],
        )
        for bab, pasals in view.outline()
    ]
    context = {
        "nav": "documents",
        "doc": document,
        "view": view,
        "outline": outline,
        "as_of": on.isoformat(),
        "date_error": error,
        "notice": NOTICE,
    }
    template = (
        "ingestion/partials/consolidated_body.html"
        if is_htmx(request)
        else "ingestion/regulation_reader.html"
    )
    return page(request, template, context)
