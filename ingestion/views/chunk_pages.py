"""A document's pages on its detail page: lazy thumbnails and where a chunk sits on them."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from ingestion.models import Chunk, Document
from ingestion.views.common import is_htmx, page
from ingestion.views.regions import page_regions

PAGED_FORMATS = frozenset({"pdf", "image"})  # what render_page_png can draw
THUMBNAIL_PAGES = 40  # a 600-page gazette gets a strip, not 600 requests
VIEWER_WIDTH = 520


def _viewer(document: Document, chunk_id: Any) -> dict[str, Any]:
    try:
        pk = int(chunk_id)
    except (TypeError, ValueError):
        return {"chunk": None, "regions": []}
    chunk = (
        Chunk.objects.filter(document=document, pk=pk)
        .only("id", "ordinal", "regions", "page_from", "page_to")
        .first()
    )
    regions = page_regions(chunk.regions) if chunk is not None else []
    return {"chunk": chunk, "regions": regions, "image_width": VIEWER_WIDTH}


def page_context(request: HttpRequest, document: Document) -> dict[str, Any]:
    """Thumbnails (rendered lazily by the browser, cached in object storage) and the viewer."""
    paged = document.format in PAGED_FORMATS and bool(document.page_count)
    count = document.page_count or 0
    return {
        "thumbs": range(1, min(count, THUMBNAIL_PAGES) + 1) if paged else [],
        "more_pages": max(count - THUMBNAIL_PAGES, 0) if paged else 0,
        "paged": paged,
        "viewer": _viewer(document, request.GET.get("chunk")) if paged else None,
    }


@login_required
def chunk_region(request: HttpRequest, pk: UUID, chunk_id: int) -> HttpResponse:
    """The viewer outlining one chunk on its pages (htmx), else the document page showing it."""
    document = get_object_or_404(
        Document.objects.only("id", "format", "page_count", "title", "status"), pk=pk
    )
    if not is_htmx(request):
        return redirect(f"{reverse('document_detail', args=[pk])}?chunk={chunk_id}#chunk-viewer")
    context = {"doc": document, "viewer": _viewer(document, chunk_id)}
    return page(request, "ingestion/partials/chunk_viewer.html", context)
