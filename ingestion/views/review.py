"""Review queue: parked chunks beside the page image they came from; approve, correct, reject."""

from __future__ import annotations

import hashlib
import io
import logging
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from ingestion import review as review_service
from ingestion.charts.svg import fmt_decimal
from ingestion.forms import ChunkTextForm
from ingestion.models import Chunk, Document, DocumentStatus, ReviewState
from ingestion.permissions import reviewer_required
from ingestion.pipeline.parse import render_page_png
from ingestion.storage import ObjectMissing, get_storage
from ingestion.views.common import is_htmx, page, paginate
from ingestion.views.regions import page_regions

log = logging.getLogger(__name__)

PAGE_IMAGE_DPI = 110
THUMBNAIL_DPI = 24  # ~200 px wide for A4: enough to recognise a page in the strip
PAGE_SIZES = {"": PAGE_IMAGE_DPI, "kecil": THUMBNAIL_DPI}
PAGE_IMAGE_MAX_PIXELS = 6_000_000  # a poster-sized scan is shown smaller, never refused
PAGE_IMAGE_PREFIX = "derived/page-images"


def _pending_count() -> Any:
    # A correlated count through the partial "parked chunks" index: a JOIN + GROUP BY over
    # every chunk of every listed document took ~0.5 s at 300k chunks.
    return (
        Chunk.objects.filter(
            document=OuterRef("pk"), indexed=False, review_state=ReviewState.PENDING
        )
        .order_by()
        .values("document")
        .annotate(n=Count("pk"))
        .values("n")
    )


@reviewer_required
def review_queue(request: HttpRequest) -> HttpResponse:
    documents = (
        Document.objects.filter(status=DocumentStatus.NEEDS_REVIEW)
        .only("id", "title", "source_type", "ocr_confidence", "page_count", "created_at")
        .annotate(
            pending=Coalesce(Subquery(_pending_count(), output_field=IntegerField()), Value(0))
        )
        .order_by("created_at")
    )
    return page(
        request,
        "ingestion/review_queue.html",
        {"nav": "review", "page_obj": paginate(request, documents)},
    )


def _pending_chunks(document: Document) -> Any:
    return (
        Chunk.objects.filter(document=document, indexed=False)
        .exclude(review_state=ReviewState.NONE)
        .defer("embedding", "search_vector")
        .order_by("ordinal")
    )


@reviewer_required
def review_document(request: HttpRequest, pk: UUID) -> HttpResponse:
    document = get_object_or_404(Document, pk=pk)
    chunks = paginate(request, _pending_chunks(document).filter(review_state=ReviewState.PENDING))
    for chunk in chunks.object_list:
        _mark_seen(chunk)
    counts = _counts(document)
    threshold = float(settings.OCR_REVIEW_THRESHOLD)
    context = {
        "nav": "review",
        "doc": document,
        "page_obj": chunks,
        "counts": counts,
        "threshold": threshold,
        "suggested_above": max(0.0, round(threshold - 0.1, 2)),
    }
    return page(request, "ingestion/review_document.html", context)


def _counts(document: Document) -> dict[str, int]:
    rows = (
        Chunk.objects.filter(document=document, indexed=False)
        .order_by()
        .values_list("review_state")
        .annotate(n=Count("pk"))
    )
    counts = {str(state): int(n) for state, n in rows}
    approved = Chunk.objects.filter(document=document, review_state=ReviewState.APPROVED).count()
    return {
        "pending": counts.get(ReviewState.PENDING, 0),
        "rejected": counts.get(ReviewState.REJECTED, 0),
        "approved": approved,
    }


def _chunk_response(
    request: HttpRequest, chunk_id: int, outcome: Any, error: str | None
) -> HttpResponse:
    chunk = get_object_or_404(
        Chunk.objects.defer("embedding").select_related("document"), pk=chunk_id
    )
    _mark_seen(chunk)
    context = {
        "chunk": chunk,
        "doc": chunk.document,
        "error": error,
        "counts": _counts(chunk.document),
        "became_indexed": bool(outcome and outcome.became_indexed),
        "oob": True,
    }
    if not is_htmx(request):
        if error:
            messages.error(request, error)
        return redirect("review_document", pk=chunk.document_id)
    return page(request, "ingestion/partials/review_chunk_result.html", context)


def _mark_seen(chunk: Chunk) -> None:
    # The form sends this back, so a correction saved meanwhile by someone else is noticed.
    chunk.seen_version = review_service.text_version(chunk.text)  # type: ignore[attr-defined]
    # The shown page with the chunk's OCR lines; those below the threshold get outlined.
    shown = page_regions(
        chunk.regions, threshold=float(settings.OCR_REVIEW_THRESHOLD), page=chunk.page_from
    )
    chunk.page_region = shown[0] if shown else None  # type: ignore[attr-defined]


def _seen(request: HttpRequest) -> str | None:
    return request.POST.get("seen") or None


def _text_from(request: HttpRequest) -> tuple[str | None, str | None]:
    form = ChunkTextForm(request.POST)
    if not form.is_valid():
        return None, "Teks potongan tidak boleh kosong."
    return str(form.cleaned_data["text"]), None


@require_POST
@reviewer_required
def chunk_save(request: HttpRequest, chunk_id: int) -> HttpResponse:
    text, error = _text_from(request)
    if text is not None:
        try:
            review_service.edit_chunk(chunk_id, user=request.user, text=text, seen=_seen(request))
        except review_service.ReviewError as exc:
            error = str(exc)
    return _chunk_response(request, chunk_id, None, error)


@require_POST
@reviewer_required
def chunk_approve(request: HttpRequest, chunk_id: int) -> HttpResponse:
    text, error = _text_from(request)
    outcome = None
    if text is not None:
        try:
            outcome = review_service.approve_chunk(
                chunk_id, user=request.user, text=text, seen=_seen(request)
            )
        except review_service.ReviewError as exc:
            error = str(exc)
    return _chunk_response(request, chunk_id, outcome, error)


@require_POST
@reviewer_required
def chunk_reject(request: HttpRequest, chunk_id: int) -> HttpResponse:
    error = None
    outcome = None
    try:
        outcome = review_service.reject_chunk(chunk_id, user=request.user, seen=_seen(request))
    except review_service.ReviewError as exc:
        error = str(exc)
    return _chunk_response(request, chunk_id, outcome, error)


@require_POST
@reviewer_required
def approve_all(request: HttpRequest, pk: UUID) -> HttpResponse:
    document = get_object_or_404(Document.objects.only("id"), pk=pk)
    try:
        outcome = review_service.approve_all(document.pk, user=request.user)
    except review_service.ReviewError as exc:
        messages.error(request, str(exc))
        return _redirect(request, reverse("review_document", args=[document.pk]))
    if outcome.became_indexed:
        messages.success(request, "Semua potongan disetujui. Dokumen kini terindeks.")
        target = reverse("document_detail", args=[document.pk])
    else:
        messages.info(request, "Potongan yang tersisa sudah disetujui.")
        target = reverse("review_document", args=[document.pk])
    return _redirect(request, target)


def parse_confidence(raw: str | None) -> float | None:
    """A confidence typed as 0.8 or 0,8 (Indonesian decimal comma), within 0..1."""
    try:
        value = float((raw or "").strip().replace(",", "."))
    except ValueError:
        return None
    return value if 0.0 <= value <= 1.0 else None


BAD_CONFIDENCE = "Isi keyakinan minimum antara 0 dan 1, misalnya 0,8."


@reviewer_required
def approve_above(request: HttpRequest, pk: UUID) -> HttpResponse:
    """GET: how many pending chunks are above X (the confirmation); POST: approve them."""
    document = get_object_or_404(Document.objects.only("id", "title", "status"), pk=pk)
    source = request.POST if request.method == "POST" else request.GET
    above = parse_confidence(source.get("above"))
    if request.method != "POST":
        count = review_service.pending_above(document.pk, above).count() if above is not None else 0
        template = (
            "ingestion/partials/review_approve_above_confirm.html"
            if is_htmx(request)
            else "ingestion/review_approve_above.html"
        )
        context = {"doc": document, "above": above, "count": count, "error": BAD_CONFIDENCE}
        return page(request, template, {"nav": "review", **context})
    back = reverse("review_document", args=[document.pk])
    if above is None:
        messages.error(request, BAD_CONFIDENCE)
        return _redirect(request, back)
    try:
        outcome = review_service.approve_all(document.pk, user=request.user, above=above)
    except review_service.ReviewError as exc:
        messages.error(request, str(exc))
        return _redirect(request, back)
    log.info("%s approved %s chunks above %s of %s", request.user, outcome.approved, above, pk)
    messages.success(
        request,
        f"{outcome.approved} potongan dengan keyakinan OCR di atas {fmt_decimal(above)} disetujui.",
    )
    if outcome.became_indexed:
        messages.success(request, "Semua potongan disetujui. Dokumen kini terindeks.")
        return _redirect(request, reverse("document_detail", args=[document.pk]))
    return _redirect(request, back)


def _redirect(request: HttpRequest, target: str) -> HttpResponse:
    if is_htmx(request):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return redirect(target)


def _page_cache_dir() -> Path:
    return Path(settings.PAGE_IMAGE_CACHE_DIR)


def _render_page(document: Document, number: int, dpi: int) -> bytes:
    started = time.monotonic()
    suffix = Path(document.file_name).suffix or f".{document.format}"
    with tempfile.TemporaryDirectory(prefix="page-") as tmp:
        source = Path(tmp) / f"source{suffix}"
        get_storage().download_to(document.storage_key, source, int(settings.INGEST_MAX_BYTES))
        png = render_page_png(source, number, dpi, max_pixels=PAGE_IMAGE_MAX_PIXELS)
    log.info("rendered page %s of %s at %s dpi in %.0f ms", number, document.pk, dpi, _ms(started))
    return png


def _stored_page(key: str) -> bytes | None:
    object_key = f"{PAGE_IMAGE_PREFIX}/{key}.png"
    try:
        stream = get_storage().open(object_key)
        try:
            return stream.read()
        finally:
            stream.close()
    except ObjectMissing:
        return None
    except Exception as exc:  # a storage hiccup only costs a re-render
        log.warning("cached page image %s unreadable: %s", object_key, exc)
        return None


def _store_page(key: str, png: bytes) -> None:
    try:
        get_storage().put(f"{PAGE_IMAGE_PREFIX}/{key}.png", io.BytesIO(png))
    except Exception as exc:  # serving the page matters more than caching it
        log.warning("page image %s not stored: %s", key, exc)


def _write_local(cached: Path, png: bytes) -> None:
    cached.parent.mkdir(parents=True, exist_ok=True)
    # A unique temporary name: two reviewers opening the same page must not collide.
    with tempfile.NamedTemporaryFile(dir=cached.parent, suffix=".tmp", delete=False) as tmp:
        tmp.write(png)
    Path(tmp.name).replace(cached)


def _page_png(document: Document, number: int, dpi: int, key: str) -> bytes:
    """Local copy, else the object store (shared by every web node), else render once."""
    cached = _page_cache_dir() / f"{key}.png"
    if cached.is_file():
        return cached.read_bytes()
    png = _stored_page(key)
    if png is None:
        png = _render_page(document, number, dpi)
        _store_page(key, png)
    _write_local(cached, png)
    return png


@login_required
def page_image(request: HttpRequest, pk: UUID, number: int) -> HttpResponse:
    """A page rendered from the stored original, lazily, once per content hash and size.

    ``?ukuran=kecil`` is the thumbnail. Renders are kept in object storage under
    ``derived/page-images/`` (and a local copy in ``PAGE_IMAGE_CACHE_DIR``), so a page is
    never rendered again per request, nor per web node.
    """
    document = get_object_or_404(
        Document.objects.only("id", "storage_key", "file_name", "format", "checksum", "page_count"),
        pk=pk,
    )
    dpi = PAGE_SIZES.get(request.GET.get("ukuran", ""))
    if dpi is None or number < 1 or (document.page_count and number > document.page_count):
        raise Http404("Halaman tidak ada.")
    key = hashlib.sha256(f"{document.checksum}:{number}:{dpi}".encode()).hexdigest()
    etag = f'"{key[:32]}"'
    if request.headers.get("If-None-Match") == etag:
        return HttpResponse(status=304)
    try:
        png = _page_png(document, number, dpi, key)
    except Exception as exc:  # missing object, corrupt file, renderer absent: show a 404
        log.warning("page %s of %s could not be rendered: %s", number, document.pk, exc)
        raise Http404("Gambar halaman tidak dapat dibuat.") from exc
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "private, max-age=86400"
    response["ETag"] = etag
    return response


def _ms(started: float) -> float:
    return (time.monotonic() - started) * 1000
