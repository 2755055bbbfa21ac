"""Documents: the filterable list with live rows, the detail page, download and admin actions."""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.postgres.search import SearchQuery
from django.db import transaction
from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.db.models.fields.json import KeyTextTransform
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from ingestion.forms import DocumentFilterForm
from ingestion.jobs import enqueue_reprocess
from ingestion.legal.identity import listed_identity
from ingestion.legal.outline import regulation_outline
from ingestion.links import safe_url
from ingestion.models import (
    Chunk,
    Document,
    DocumentStatus,
    IngestionJob,
    JobMilestone,
    ReviewAction,
)
from ingestion.permissions import admin_required
from ingestion.relations.graph import other_copies, refresh_document
from ingestion.relations.read import document_status as regulation_status
from ingestion.storage import get_storage
from ingestion.views.chunk_pages import page_context
from ingestion.views.common import (
    is_htmx,
    page,
    paginate,
    query_string_without,
)
from ingestion.views.status import (
    IN_PROGRESS_JOB,
    LiveStatus,
    document_status,
    latest_job,
    live_statuses,
)

log = logging.getLogger(__name__)

LIST_FIELDS = (
    "id",
    "title",
    "citation",
    "status",
    "source_type",
    "metadata",
    "created_at",
    "failure_reason",
    "format",
    "page_count",
)
PENDING_PANEL_SIZE = 20
ARCHIVABLE = (DocumentStatus.INDEXED, DocumentStatus.NEEDS_REVIEW, DocumentStatus.FAILED)
REPROCESSABLE = (
    DocumentStatus.INDEXED,
    DocumentStatus.NEEDS_REVIEW,
    DocumentStatus.FAILED,
    DocumentStatus.ARCHIVED,
)


def _jobs_newest_first() -> Prefetch:
    return Prefetch(
        "jobs",
        queryset=IngestionJob.objects.order_by("-created_at").defer("payload"),
        to_attr="jobs_newest_first",
    )


def filtered_documents(form: DocumentFilterForm) -> QuerySet[Document]:
    queryset = Document.objects.only(*LIST_FIELDS).order_by("-created_at")
    if not form.is_valid():
        return queryset
    data = form.cleaned_data
    if data.get("status"):
        queryset = queryset.filter(status=data["status"])
    if data.get("source_type"):
        queryset = queryset.filter(source_type=data["source_type"])
    if data.get("tahun"):
        # The year the list shows: sourceMetadata's, else the regulation's own heading's.
        year = str(data["tahun"])
        queryset = queryset.alias(
            tahun=KeyTextTransform("tahun", KeyTextTransform("source", "metadata"))
        ).filter(Q(tahun=year) | Q(regulation_key__endswith=f"|{year}"))
    if data.get("q"):
        text = data["q"]
        queryset = queryset.filter(
            Q(title_search=SearchQuery(text, config="indonesian", search_type="websearch"))
            | Q(title__icontains=text)
        )
    return queryset


def _row(document: Document, lives: dict[UUID, LiveStatus]) -> dict[str, Any]:
    job = latest_job(getattr(document, "jobs_newest_first", []))
    live = document_status(document, job, lives.get(job.pk) if job else None)
    # sourceMetadata, else what the document's own heading said (its stored citation).
    identity = listed_identity(document.citation, document.source)
    return {
        "doc": document,
        "job": job,
        "live": live,
        "show_live": live.text != str(DocumentStatus(document.status).label),
        "tahun": (identity.tahun if identity else None) or "",
        "nomor": (identity.nomor if identity else None) or "",
        "citation": (identity.short if identity else None) or document.citation,
    }


@login_required
def document_list(request: HttpRequest) -> HttpResponse:
    """The list page; for htmx, one polled row (``?row=<id>``) or the filtered table."""
    row_id = request.GET.get("row")
    if is_htmx(request) and row_id:
        return _row_partial(request, row_id)
    form = DocumentFilterForm(request.GET or None)
    documents = paginate(request, filtered_documents(form))
    docs = _with_jobs(list(documents.object_list))
    pending = _jobs_without_document() if documents.number == 1 else []
    lives = live_statuses([*_latest_jobs(docs), *pending])
    context = {
        "nav": "documents",
        "form": form,
        "page_obj": documents,
        "rows": [_row(d, lives) for d in docs],
        "pending": [
            {"job": job, "title": _pending_title(job), "live": lives[job.pk]} for job in pending
        ],
        "filters_qs": query_string_without(request, "page"),
    }
    template = (
        "ingestion/partials/document_table.html"
        if is_htmx(request)
        else ("ingestion/document_list.html")
    )
    return page(request, template, context)


def _with_jobs(documents: list[Document]) -> list[Document]:
    prefetch_related_objects(documents, _jobs_newest_first())
    return documents


def _latest_jobs(documents: list[Document]) -> list[IngestionJob]:
    jobs = (latest_job(getattr(d, "jobs_newest_first", [])) for d in documents)
    return [job for job in jobs if job is not None]


def _jobs_without_document() -> list[IngestionJob]:
    """Uploads still waiting: their document row is only created when processing starts."""
    return list(
        IngestionJob.objects.filter(document__isnull=True, state__in=IN_PROGRESS_JOB).order_by(
            "created_at"
        )[:PENDING_PANEL_SIZE]
    )


def _pending_title(job: IngestionJob) -> str:
    return str(job.payload.get("title") or job.payload.get("file_name") or job.pk)


def _row_partial(request: HttpRequest, row_id: str) -> HttpResponse:
    try:
        pk = UUID(row_id)
    except ValueError as exc:
        raise Http404 from exc
    documents = _with_jobs(list(Document.objects.only(*LIST_FIELDS).filter(pk=pk)))
    if not documents:
        raise Http404
    document = documents[0]
    job = latest_job(getattr(document, "jobs_newest_first", []))
    lives = live_statuses([job]) if job else {}
    return page(request, "ingestion/partials/document_row.html", {"row": _row(document, lives)})


def _editions(document: Document) -> QuerySet[Document]:
    # Through the (sourceType, metadata->>'source_key') expression index.
    return (
        Document.objects.alias(sk=KeyTextTransform("source_key", "metadata"))
        .filter(source_type=document.source_type, sk=document.source_key)
        .exclude(pk=document.pk)
        .only("id", "title", "status", "metadata", "created_at")
        .order_by("-created_at")
    )


def _provenance_links(document: Document) -> list[dict[str, Any]]:
    return [
        {"key": key, "value": value, "url": safe_url(value)}
        for key, value in sorted(document.source.items())
    ]


@login_required
def document_detail(request: HttpRequest, pk: UUID) -> HttpResponse:
    document = get_object_or_404(Document, pk=pk)
    jobs = list(
        document.jobs.order_by("-created_at").prefetch_related(
            Prefetch("milestones", queryset=JobMilestone.objects.order_by("seq"))
        )
    )
    chunks = paginate(
        request,
        Chunk.objects.filter(document=document).defer("embedding", "regions").order_by("ordinal"),
        param="chunks",
    )
    actions = (
        ReviewAction.objects.filter(document=document)
        .select_related("user", "chunk")
        .only(
            "action", "text_before", "text_after", "created_at", "user__username", "chunk__ordinal"
        )
        .order_by("-created_at")[:200]
    )
    live = document_status(document, jobs[0] if jobs else None)
    context = {
        "nav": "documents",
        "doc": document,
        "live": live,
        "show_live": live.text != str(DocumentStatus(document.status).label),
        "jobs": jobs,
        "editions": list(_editions(document)),
        "provenance": _provenance_links(document),
        "chunks": chunks,
        "actions": list(actions),
        "can_archive": document.status in ARCHIVABLE,
        "can_reprocess": document.status in REPROCESSABLE,
        "outline": regulation_outline(document.pk),
        "regulation": regulation_status(document),
        "copies": other_copies(document),
        **page_context(request, document),
    }
    return page(request, "ingestion/document_detail.html", context)


@login_required
def document_download(request: HttpRequest, pk: UUID) -> FileResponse:
    document = get_object_or_404(
        Document.objects.only("storage_key", "file_name", "mime_type"), pk=pk
    )
    try:
        stream = get_storage().open(document.storage_key)
    except Exception as exc:  # storage errors vary by backend; the person needs a 404
        log.warning("download of %s failed: %s", document.storage_key, exc)
        raise Http404("Berkas asli tidak ditemukan di penyimpanan.") from exc
    response = FileResponse(
        stream,
        as_attachment=True,
        filename=document.file_name or "dokumen",
        content_type=document.mime_type or "application/octet-stream",
    )
    return response


@require_POST
@admin_required
def document_archive(request: HttpRequest, pk: UUID) -> HttpResponse:
    with transaction.atomic():
        document = get_object_or_404(Document.objects.select_for_update(), pk=pk)
        if document.status not in ARCHIVABLE:
            messages.error(request, "Dokumen dengan status ini tidak dapat diarsipkan.")
        else:
            document.status = DocumentStatus.ARCHIVED
            document.save(update_fields=["status", "updated_at"])
            # An archived regulation repeals nothing any more and is no link target.
            refresh_document(document)
            messages.success(request, "Dokumen diarsipkan dan tidak lagi muncul di pencarian.")
    return redirect("document_detail", pk=pk)


@require_POST
@admin_required
def document_reprocess(request: HttpRequest, pk: UUID) -> HttpResponse:
    # The row lock serialises double clicks and two admins: an indexed document keeps its
    # status while its reprocess job waits, so the status alone cannot tell it is queued.
    with transaction.atomic():
        document = get_object_or_404(Document.objects.select_for_update(), pk=pk)
        busy = document.jobs.filter(state__in=IN_PROGRESS_JOB).exists()
        if document.status not in REPROCESSABLE or busy:
            messages.error(
                request, "Dokumen ini sedang diproses atau sudah di antrean; tunggu hingga selesai."
            )
            return redirect("document_detail", pk=pk)
        enqueue_reprocess(document, user=request.user)
    messages.success(request, "Dokumen dimasukkan ke antrean untuk diproses ulang.")
    return redirect("document_detail", pk=pk)
