"""API router for documents, jobs and search (mounted under ``/api/`` by aceh_rag.api).

``GET /api/jobs/{id}`` answers in the platform conventions' poll shape (§3.3):
``queued`` (queue_position, eta_ms) → ``processing`` (stage, progress) → ``completed`` |
``failed``. Ingestion outcomes that are final but not plain success keep ``completed``
and say which in ``detail``: ``needs_review`` (some text waits for a human) or
``skipped`` (structured source or identical bytes: nothing new to index). ``failed``
carries ``error.message`` — the pipeline's own reason, e.g. "PDF rusak / tidak dapat
dibaca". An unknown id (internal job id or partner jobId) → 404 ``{"code": "JOB_UNKNOWN"}``.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any, Literal

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify
from ninja import File, Form, Query, Router, Schema, Status
from ninja.files import UploadedFile
from ninja.security import django_auth
from pydantic import Field, field_validator

from aceh_rag.api_support import ApiError, upload_token_auth
from ingestion.jobs import UploadMeta, enqueue_upload, queue_info
from ingestion.models import ApiToken, Document, IngestionJob, JobState, SourceType
from ingestion.permissions import is_admin
from ingestion.relations.consolidated import UnitNotFound, consolidated_regulation, unit_in_force
from ingestion.relations.graph import other_copies
from ingestion.relations.read import document_status
from ingestion.search.service import Editions, SearchQuery, search
from ingestion.visibility import visible

router = Router(tags=["ingestion"])

# --- Schemas -------------------------------------------------------------------------------


class _StorableText(Schema):
    """Text fields Postgres can hold: a NUL character can be neither stored nor compared
    (psycopg raises DataError, a 500), so it is refused as the client's error (422)."""

    @field_validator("*")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        if isinstance(value, str) and "\x00" in value:
            raise ValueError("Teks tidak boleh berisi karakter NUL")
        return value


class SearchIn(_StorableText):
    # A pasted page is still a question: search reads its first 1,000 characters
    # (ingestion.search.understand.MAX_QUERY_CHARS) rather than refusing it.
    q: str = Field(min_length=1, max_length=10_000, description="Teks pertanyaan atau kata kunci")
    limit: int = Field(10, ge=1, le=100)
    source_type: str | None = Field(None, description="JDIH, OpenData, PPID, SatuData, upload")
    tahun: str | None = None
    wilayah: str | None = None
    jenis: str | None = None
    status_berlaku: str | None = None
    classification: str | None = None
    editions: Literal["latest", "all"] = "latest"
    include_repealed: bool = Field(
        False, description="Sertakan hasil dari peraturan yang telah dicabut (inForce: false)"
    )
    as_of: date | None = Field(
        None, description="Rumusan yang berlaku pada tanggal ini (YYYY-MM-DD); bawaan: hari ini"
    )
    include_history: bool = Field(
        False, description="Sertakan juga rumusan yang telah diganti (inForce: false)"
    )


class ChangedByOut(Schema):
    """An amending regulation that gave a unit its wording, and the instruction that did."""

    citation: str
    documentId: str | None
    instruction: str


class ReferenceUnitOut(Schema):
    pasal: str | None
    ayat: str | None
    huruf: str | None
    angka: str | None


class ReferenceOut(Schema):
    """A cross-reference in the result's text ("sebagaimana dimaksud dalam Pasal 5 ayat (2)")
    resolved to the unit it names; ``chunkId`` is null when that unit is not here."""

    label: str
    chunkId: int | None
    unit: ReferenceUnitOut
    documentId: str | None = None
    citation: str | None = None
    span: list[int] = Field(default_factory=list, description="[start, end] in text")


class LegalUnitOut(Schema):
    """Where in a regulation a hit is: values as printed ("21A", "4", "g", "3")."""

    pasal: str
    ayat: str | None = None
    huruf: str | None = None
    angka: str | None = None


class SearchHitOut(Schema):
    documentId: str
    title: str
    headingPath: str
    pageFrom: int
    pageTo: int
    text: str
    score: float
    sourceUrl: str
    sourceType: str
    sourceKey: str
    sourceVersion: str
    chunkId: int
    nomor: str | None = None
    tahun: str | None = None
    jenis: str | None = None
    inForce: bool | None = Field(
        None, description="Peraturan masih berlaku (true), dicabut (false), tidak diketahui (null)"
    )
    amendedBy: list[str] = Field(default_factory=list, description="Sitasi peraturan pengubah")
    repealedBy: list[str] = Field(default_factory=list, description="Sitasi peraturan pencabut")
    references: list[ReferenceOut] = Field(default_factory=list)
    citation: str | None = Field(
        None, description='"PP 34/2021 Pasal 21 ayat (4) huruf g"; null for non-legal text'
    )
    unit: LegalUnitOut | None = Field(None, description="The legal unit cited; null if none")
    unitText: str | None = Field(None, description="The text of that unit")
    unitSpan: list[int] | None = Field(
        None, description="[start, end] of unitText inside text", min_length=2, max_length=2
    )
    citationFull: str | None = Field(
        None,
        description='"UU 11/2008 Pasal 26 ayat (3) sebagaimana telah diubah dengan UU 19/2016"',
    )
    consolidated: bool = Field(
        False, description="The unit is cited as restated by an amending regulation"
    )
    changedBy: list[ChangedByOut] = Field(
        default_factory=list, description="The amendments that gave the unit this wording"
    )
    validFrom: str | None = Field(None, description="Since when this wording is in force")


class SearchOut(Schema):
    results: list[SearchHitOut]
    degraded: Literal["lexical_only", "no_rerank"] | None
    tookMs: float
    namedRegulationMissing: str | None = Field(
        None,
        description="Peraturan yang disebut pertanyaan tetapi tidak ada di korpus "
        '(mis. "UU 27/2022"); sisa korpus tetap dicari',
    )


class DocumentUploadIn(_StorableText):
    title: str | None = None
    source_type: str = "upload"
    source_key: str | None = None
    source_version: str | None = None
    classification: str | None = None
    category: str | None = None
    skpa_unit: str | None = None
    jenis: str | None = None
    nomor: str | None = None
    tahun: str | None = None
    wilayah: str | None = None
    status_berlaku: str | None = None
    bidang_hukum: str | None = None
    url: str | None = None
    pdf_url: str | None = None
    detail_url: str | None = None


class DocumentUploadOut(Schema):
    jobId: str | None
    documentId: str | None
    duplicate: bool
    status: str
    message: str


class EditionOut(Schema):
    id: str
    sourceVersion: str
    status: str
    createdAt: datetime
    latest: bool


class ChunkCountsOut(Schema):
    total: int
    indexed: int
    parked: int


class RelationOut(Schema):
    kind: Literal["amends", "repeals", "amended_by", "repealed_by"]
    citation: str
    title: str | None
    documentId: str | None


class CopyOut(Schema):
    documentId: str
    title: str
    sourceType: str
    sourceKey: str


class DocumentOut(Schema):
    id: str
    title: str
    status: str
    sourceType: str
    sourceKey: str
    sourceVersion: str
    source: dict[str, Any]
    fileName: str
    mimeType: str
    format: str
    pageCount: int | None
    ocrConfidence: float | None
    failureReason: str
    createdAt: datetime
    indexedAt: datetime | None
    chunks: ChunkCountsOut
    editions: list[EditionOut]
    citation: str | None = Field(None, description='Sitasi singkat, mis. "PP 34/2021"')
    inForce: bool | None = Field(
        None, description="Masih berlaku (true), dicabut/tidak berlaku (false), tidak diketahui"
    )
    inForceSource: Literal["status_berlaku", "relations"] | None = Field(
        None, description="Yang menentukan inForce: status_berlaku mitra (menang) atau relasi"
    )
    statusBerlaku: str | None = Field(None, description="status_berlaku dari mitra, apa adanya")
    relations: list[RelationOut] = Field(default_factory=list)
    copies: list[CopyOut] = Field(
        default_factory=list, description="Salinan lain peraturan yang sama dari sumber lain"
    )


class JobErrorOut(Schema):
    code: str
    message: str


class JobResultOut(Schema):
    document_id: str | None
    outcome: str


class JobOut(Schema):
    job_id: str
    partner_job_id: str | None
    status: Literal["queued", "processing", "completed", "failed"]
    queue_position: int | None
    eta_ms: int | None
    stage: str | None
    progress: int
    status_text: str
    detail: Literal["needs_review", "skipped"] | None
    result: JobResultOut | None
    error: JobErrorOut | None


class ErrorOut(Schema):
    code: str
    detail: Any


# --- Search --------------------------------------------------------------------------------


@router.get("/search", response={200: SearchOut, 401: ErrorOut, 422: ErrorOut}, tags=["search"])
def search_chunks(request: HttpRequest, params: Query[SearchIn]) -> dict[str, Any]:
    """Hybrid search (dense + full text, fused by RRF) over indexed chunks with citations."""
    query = SearchQuery(
        text=params.q,
        limit=params.limit,
        source_type=params.source_type,
        tahun=params.tahun,
        wilayah=params.wilayah,
        jenis=params.jenis,
        status_berlaku=params.status_berlaku,
        classification=params.classification,
        editions=Editions(params.editions),
        include_repealed=params.include_repealed,
        as_of=params.as_of,
        include_history=params.include_history,
    )
    return search(query).to_json()


# --- Documents -----------------------------------------------------------------------------

_SOURCE_METADATA_FIELDS = (
    "jenis",
    "nomor",
    "tahun",
    "wilayah",
    "status_berlaku",
    "bidang_hukum",
    "url",
    "pdf_url",
    "detail_url",
)


@router.post(
    "/documents",
    response={
        202: DocumentUploadOut,
        200: DocumentUploadOut,
        400: ErrorOut,
        401: ErrorOut,
        403: ErrorOut,
        413: ErrorOut,
        422: ErrorOut,
        429: ErrorOut,
    },
    tags=["documents"],
    auth=[upload_token_auth, django_auth],
)
def upload_document(
    request: HttpRequest, file: File[UploadedFile], meta: Form[DocumentUploadIn]
) -> Status:
    """Upload one file with its metadata; it joins the ingestion queue (202) or, when the
    same bytes and version already exist, the existing document is returned (200)."""
    _require_uploader(request)
    if meta.source_type not in SourceType.values:
        raise ApiError(
            400,
            "UPLOAD_REJECTED",
            f"Jenis sumber tidak dikenal; pilih salah satu: {', '.join(SourceType.values)}",
        )
    upload_meta = UploadMeta(
        title=meta.title,
        source_type=meta.source_type,
        source_key=meta.source_key,
        source_version=meta.source_version,
        source_metadata={
            name: value
            for name in _SOURCE_METADATA_FIELDS
            if (value := (getattr(meta, name) or "").strip())
        },
        classification=meta.classification,
        category=meta.category,
        skpa_unit=meta.skpa_unit,
    )
    user = request.user if getattr(request.user, "is_authenticated", False) else None
    outcome = enqueue_upload(file, meta=upload_meta, user=user)
    if outcome.error:
        raise ApiError(400, "UPLOAD_REJECTED", outcome.error)
    job, document = outcome.job, outcome.document
    body = {
        "jobId": str(job.pk) if job else None,
        "documentId": str(document.pk) if document else None,
        "duplicate": outcome.duplicate,
        "status": document.status if document else (job.state if job else "queued"),
        "message": outcome.message,
    }
    return Status(200 if outcome.duplicate else 202, body)


def _require_uploader(request: HttpRequest) -> None:
    """Tokens are issued to machine clients by an operator; a browser session needs the
    Admin role, as on the upload page (a Peninjau must not upload through the API)."""
    if isinstance(getattr(request, "auth", None), ApiToken):
        return
    if not is_admin(request.user):
        raise ApiError(403, "FORBIDDEN", "Hanya Admin yang dapat mengunggah dokumen")


def _parse_uuid(value: str, code: str, detail: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise ApiError(404, code, detail) from None


@router.get(
    "/documents/{document_id}",
    response={200: DocumentOut, 401: ErrorOut, 404: ErrorOut},
    tags=["documents"],
)
def get_document(request: HttpRequest, document_id: str) -> dict[str, Any]:
    """A document with its chunk counts and every edition of the same source."""
    unknown = "Dokumen tidak ditemukan"
    pk = _parse_uuid(document_id, "DOCUMENT_UNKNOWN", unknown)
    # A document the caller may not see is unknown: its existence does not leak.
    document = visible(Document.objects.filter(pk=pk)).first()
    if document is None:
        raise ApiError(404, "DOCUMENT_UNKNOWN", unknown)
    counts = document.chunks.aggregate(
        total=Count("id"), indexed=Count("id", filter=Q(indexed=True))
    )
    return {
        "id": str(document.pk),
        "title": document.title,
        "status": document.status,
        "sourceType": document.source_type,
        "sourceKey": document.source_key,
        "sourceVersion": document.source_version,
        "source": document.source,
        "fileName": document.file_name,
        "mimeType": document.mime_type,
        "format": document.format,
        "pageCount": document.page_count,
        "ocrConfidence": document.ocr_confidence,
        "failureReason": document.failure_reason,
        "createdAt": document.created_at,
        "indexedAt": document.indexed_at,
        "chunks": {
            "total": counts["total"],
            "indexed": counts["indexed"],
            "parked": counts["total"] - counts["indexed"],
        },
        "editions": _editions(document),
        **_legal_status(document),
    }


def _legal_status(document: Document) -> dict[str, Any]:
    status = document_status(document)
    return {
        "citation": getattr(document, "citation", "") or None,
        "inForce": status.in_force,
        "inForceSource": status.source.value if status.source else None,
        "statusBerlaku": status.status_berlaku,
        "relations": [r.to_json() for r in status.relations],
        "copies": [
            {
                "documentId": str(c.pk),
                "title": c.title,
                "sourceType": c.source_type,
                "sourceKey": c.source_key,
            }
            for c in other_copies(document)
        ],
    }


def _editions(document: Document) -> list[dict[str, Any]]:
    """All editions of the document's source, newest first; ``latest`` marks the newest
    edition that is searchable (as search's ``editions=latest`` chooses it)."""
    editions = list(
        visible(Document.objects.all())
        .filter(Document.of_source(document.source_type, document.source_key))
        .annotate(indexed_chunks=Count("chunks", filter=Q(chunks__indexed=True)))
        .order_by("-created_at", "-id")
    )
    latest = next(
        (e.pk for e in editions if e.indexed_chunks and e.status not in ("archived", "failed")),
        None,
    )
    return [
        {
            "id": str(e.pk),
            "sourceVersion": e.source_version,
            "status": e.status,
            "createdAt": e.created_at,
            "latest": e.pk == latest,
        }
        for e in editions
    ]


# --- Jobs ----------------------------------------------------------------------------------

_COMPLETED_DETAIL = {
    JobState.DONE: None,
    JobState.NEEDS_REVIEW: "needs_review",
    JobState.SKIPPED: "skipped",
}


@router.get("/jobs/{job_id}", response={200: JobOut, 401: ErrorOut, 404: ErrorOut}, tags=["jobs"])
def get_job(request: HttpRequest, job_id: str) -> dict[str, Any]:
    """Poll a job by our job id or by the partner's jobId."""
    unknown = "Job tidak dikenal"
    pk = _parse_uuid(job_id, "JOB_UNKNOWN", unknown)
    job = IngestionJob.objects.filter(Q(pk=pk) | Q(partner_job_id=pk)).first()
    if job is None:
        raise ApiError(404, "JOB_UNKNOWN", unknown)
    return job_poll_json(job)


def job_poll_json(job: IngestionJob) -> dict[str, Any]:
    """The conventions' poll shape for one job (see the module docstring)."""
    info = queue_info(job)
    body: dict[str, Any] = {
        "job_id": str(job.pk),
        "partner_job_id": str(job.partner_job_id) if job.partner_job_id else None,
        "status": "queued",
        "queue_position": None,
        "eta_ms": None,
        "stage": job.stage or None,
        "progress": job.progress,
        "status_text": info.text,
        "detail": None,
        "result": None,
        "error": None,
    }
    state = JobState(job.state)
    if state in (JobState.QUEUED, JobState.DEFERRED):
        body["queue_position"] = info.position
        body["eta_ms"] = info.eta_seconds * 1000 if info.eta_seconds is not None else None
    elif state == JobState.PROCESSING:
        body["status"] = "processing"
    elif state == JobState.FAILED:
        body["status"] = "failed"
        body["error"] = {"code": "INGEST_FAILED", "message": job.error or "Gagal"}
    else:
        body["status"] = "completed"
        body["detail"] = _COMPLETED_DETAIL[state]
    if state in _COMPLETED_DETAIL or state == JobState.FAILED:
        body["result"] = {
            "document_id": str(job.document_id) if job.document_id else None,
            "outcome": state.value,
        }
    return body


# --- Consolidated text ---------------------------------------------------------------------


class ConsolidatedIn(Schema):
    as_of: date | None = Field(
        None, description="Keadaan pada tanggal ini (YYYY-MM-DD); bawaan: hari ini"
    )
    format: Literal["json", "text"] = Field(
        "json", description='"text": unduhan naskah konsolidasi (text/plain)'
    )


class UnitIn(_StorableText):
    ref: str = Field(
        min_length=1, max_length=300, description='Rujukan, mis. "UU 11/2008 Pasal 26 ayat (3)"'
    )
    as_of: date | None = Field(None, description="Rumusan yang berlaku pada tanggal ini")


class PasalVersionOut(Schema):
    state: Literal["original", "amended", "inserted", "deleted"]
    text: str
    validFrom: str | None
    validTo: str | None = Field(None, description="null: still in force, or end not known")
    changedBy: ChangedByOut | None
    inForce: bool


class ConsolidatedPasalOut(Schema):
    number: str = Field(description='"26", "27A"')
    bab: str | None
    state: Literal["original", "amended", "inserted", "deleted"] | None = Field(
        None, description="null: not yet in force on asOf"
    )
    text: str
    validFrom: str | None
    validTo: str | None
    changedBy: list[ChangedByOut]
    versions: list[PasalVersionOut] = Field(description="Every wording, oldest first")


class AmendmentAppliedOut(Schema):
    citation: str
    documentId: str
    title: str
    date: str | None = Field(description="The date it came into force, read from its text")
    datedByText: bool
    counts: dict[str, int] = Field(description="Instructions by state, and total")


class InstructionOut(Schema):
    source: str = Field(description='"UU 19/2016 Pasal I angka 9"')
    amending: str
    operation: str | None
    target: str
    state: Literal["new", "applied", "unparsed", "conflict"]
    text: str
    reason: str


class ConsolidatedOut(Schema):
    documentId: str
    citation: str
    title: str
    asOf: str
    consolidated: bool = Field(description="false: no amendment of it is in the corpus")
    state: Literal["built", "failed"] | None
    error: str | None
    chainComplete: bool
    missing: list[str] = Field(description="Earlier amendments named but not in the corpus")
    datedByText: bool
    amendments: list[AmendmentAppliedOut]
    pasals: list[ConsolidatedPasalOut]
    unparsed: list[InstructionOut]
    conflicts: list[InstructionOut]


class UnitVersionOut(PasalVersionOut):
    unitText: str | None = Field(None, description="The unit in this wording; null: absent")


class UnitOut(Schema):
    ref: str
    citation: str
    citationFull: str
    documentId: str
    label: str
    asOf: str
    state: Literal["original", "amended", "inserted", "deleted"] | None
    text: str | None = Field(description="The unit in force on asOf; null: not in force")
    inForce: bool
    validFrom: str | None
    validTo: str | None
    changedBy: list[ChangedByOut]
    history: list[UnitVersionOut]


@router.get(
    "/documents/{document_id}/consolidated",
    response={200: ConsolidatedOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    tags=["documents"],
)
def get_consolidated(request: HttpRequest, document_id: str, params: Query[ConsolidatedIn]) -> Any:
    """The regulation Pasal by Pasal in the wording in force on ``as_of``, with every
    earlier wording and the amendments applied; ``format=text`` is the plain download."""
    unknown = "Dokumen tidak ditemukan"
    pk = _parse_uuid(document_id, "DOCUMENT_UNKNOWN", unknown)
    document = visible(Document.objects.filter(pk=pk)).first()
    if document is None:
        raise ApiError(404, "DOCUMENT_UNKNOWN", unknown)
    view = consolidated_regulation(document, params.as_of)
    if params.format == "text":
        response = HttpResponse(view.as_text(), content_type="text/plain; charset=utf-8")
        name = slugify(view.citation or view.title) or "peraturan"
        response["Content-Disposition"] = (
            f'attachment; filename="naskah-konsolidasi-{name}-{view.as_of.isoformat()}.txt"'
        )
        return response
    return view.to_json()


@router.get(
    "/units", response={200: UnitOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut}, tags=["search"]
)
def get_unit(request: HttpRequest, params: Query[UnitIn]) -> dict[str, Any]:
    """One unit ("UU 11/2008 Pasal 26 ayat (3)") in the wording in force on ``as_of``, with
    its history. A reference that names nothing here → 404 ``UNIT_UNKNOWN``."""
    try:
        return unit_in_force(params.ref, params.as_of).to_json()
    except UnitNotFound as exc:
        raise ApiError(404, "UNIT_UNKNOWN", str(exc)) from None
