"""Upload: several files at once, limits shown up front, duplicates linked to the original."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.core.files.uploadedfile import UploadedFile
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.defaultfilters import filesizeformat

from ingestion.errors import StageError
from ingestion.forms import UploadForm, file_problem, max_upload_bytes, supported_extensions
from ingestion.jobs import UploadMeta, enqueue_upload
from ingestion.models import Document, IngestionJob
from ingestion.permissions import admin_required
from ingestion.views.common import is_htmx, page
from ingestion.views.status import LiveStatus, job_status

log = logging.getLogger(__name__)


@dataclass(slots=True)
class FileResult:
    name: str
    size: int
    accepted: bool = False
    duplicate: bool = False
    message: str = ""
    document: Document | None = None
    job: IngestionJob | None = None
    live: LiveStatus | None = None


def _upload_meta(form: UploadForm) -> UploadMeta:
    metadata = form.metadata()
    return UploadMeta(
        title=metadata.get("judul") or None,
        source_type=form.cleaned_data["source_type"],
        source_metadata=metadata,
    )


def _enqueue(upload: UploadedFile, meta: UploadMeta, user: Any) -> FileResult:
    result = FileResult(name=upload.name or "berkas", size=upload.size or 0)
    problem = file_problem(result.name, upload.size)
    if problem:
        result.message = problem
        return result
    try:
        outcome = enqueue_upload(upload, meta=meta, user=user)
    except StageError as exc:  # storage refused the bytes
        result.message = exc.reason
        return result
    result.document = outcome.document
    result.job = outcome.job
    result.duplicate = outcome.duplicate
    if outcome.error:
        result.message = outcome.error
    elif outcome.duplicate:
        result.message = (
            "Dokumen dengan isi (checksum) dan versi yang sama sudah ada."
            if outcome.document is not None
            else "Berkas yang sama sudah ada di antrean."
        )
    else:
        result.accepted = True
    if result.job is not None:
        result.live = job_status(result.job)
    return result


def _limits() -> dict[str, Any]:
    return {
        "max_bytes": max_upload_bytes(),
        "max_size": filesizeformat(max_upload_bytes()),
        "extensions": supported_extensions(),
        "accept": ",".join(f".{ext}" for ext in supported_extensions()),
    }


@admin_required
def upload(request: HttpRequest) -> HttpResponse:
    results: list[FileResult] = []
    if request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        if form.is_valid():
            started = time.monotonic()
            meta = _upload_meta(form)
            results = [_enqueue(f, meta, request.user) for f in form.cleaned_data["files"]]
            log.info(
                "upload of %s file(s) by %s took %.0f ms",
                len(results),
                request.user,
                (time.monotonic() - started) * 1000,
            )
            form = UploadForm(initial=form.cleaned_data | {"files": None})
    else:
        form = UploadForm()
    context = {"nav": "upload", "form": form, "results": results, "limits": _limits()}
    if is_htmx(request):
        return page(request, "ingestion/partials/upload_results.html", context)
    return page(request, "ingestion/upload.html", context)


@login_required
def upload_job_status(request: HttpRequest, pk: UUID) -> HttpResponse:
    """One uploaded file's live status line, polled until the job settles."""
    job = get_object_or_404(IngestionJob.objects.select_related("document"), pk=pk)
    if not is_htmx(request):
        raise Http404
    return page(request, "ingestion/partials/job_live.html", {"job": job, "live": job_status(job)})
