"""Admin UI views, one module per page family."""

from ingestion.views.chunk_pages import chunk_region
from ingestion.views.consolidated import regulation_reader
from ingestion.views.dashboard import dashboard
from ingestion.views.documents import (
    document_archive,
    document_detail,
    document_download,
    document_list,
    document_reprocess,
)
from ingestion.views.review import (
    approve_above,
    approve_all,
    chunk_approve,
    chunk_reject,
    chunk_save,
    page_image,
    review_document,
    review_queue,
)
from ingestion.views.search import search_page
from ingestion.views.upload import upload, upload_job_status

__all__ = [
    "approve_above",
    "approve_all",
    "chunk_approve",
    "chunk_region",
    "chunk_reject",
    "chunk_save",
    "dashboard",
    "document_archive",
    "document_detail",
    "document_download",
    "document_list",
    "document_reprocess",
    "page_image",
    "regulation_reader",
    "review_document",
    "review_queue",
    "search_page",
    "upload",
    "upload_job_status",
]
