"""Search page: one box and the filters staff use (source type, tahun, wilayah, jenis)."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse

from ingestion.errors import StageError
from ingestion.forms import SearchForm
from ingestion.links import safe_url
from ingestion.relations.references import unit_anchor
from ingestion.search.query import SearchHit, SearchQuery
from ingestion.search.service import search
from ingestion.views.common import is_htmx, page

log = logging.getLogger(__name__)

RESULT_LIMIT = 20
CONTEXT_CHARS = 240  # chunk text shown on each side of the highlighted unit


def _run(data: dict[str, Any]) -> dict[str, Any]:
    query = SearchQuery(
        text=data["q"],
        limit=RESULT_LIMIT,
        source_type=data.get("source_type") or None,
        tahun=data.get("tahun") or None,
        wilayah=data.get("wilayah") or None,
        jenis=data.get("jenis") or None,
        include_repealed=bool(data.get("include_repealed")),
    )
    response = search(query)
    hits = [
        {
            "hit": hit,
            "url": safe_url(hit.source_url),
            "references": _linked(hit.references),
            **_unit_view(hit),
        }
        for hit in response.results
    ]
    return {"hits": hits, "degraded": response.degraded, "took_ms": response.took_ms}


def _unit_view(hit: SearchHit) -> dict[str, Any]:
    """The chunk text around its cited unit (highlighted in the page) and the unit's anchor."""
    if hit.unit_span is None or hit.unit is None:
        return {"before": None, "unit_text": None, "after": None, "anchor": None}
    start, end = hit.unit_span
    before, after = hit.text[:start], hit.text[end:]
    if len(before) > CONTEXT_CHARS:
        before = "…" + before[-CONTEXT_CHARS:].lstrip()
    if len(after) > CONTEXT_CHARS:
        after = after[:CONTEXT_CHARS].rstrip() + "…"
    return {
        "before": before,
        "unit_text": hit.text[start:end],
        "after": after,
        "anchor": unit_anchor(hit.unit),
    }


def _linked(references: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each reference with the anchor of its unit on the document page."""
    return [{**ref, "anchor": unit_anchor(ref["unit"])} for ref in references]


@login_required
def search_page(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET or None)
    context: dict[str, Any] = {"nav": "search", "form": form, "searched": False}
    if form.is_valid() and form.cleaned_data.get("q", "").strip():
        context["searched"] = True
        try:
            context.update(_run(form.cleaned_data))
        except StageError as exc:
            log.warning("search failed: %s", exc)
            context["error"] = exc.reason
    template = (
        "ingestion/partials/search_results.html" if is_htmx(request) else ("ingestion/search.html")
    )
    return page(request, template, context)
