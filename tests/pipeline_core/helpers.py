"""Shared helpers for the pipeline-core tests: real storage, real documents, real models."""

from __future__ import annotations

import io
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from ingestion.pipeline.embed import LocalE5Embedder
from ingestion.pipeline.request import IngestRequest, IngestResult, PipelineObserver, Provenance
from tests.object_store import put_object as put_object

LEGAL_TEXT = (
    "QANUN ACEH NOMOR 3 TAHUN 2026\n\n"
    "BAB I KETENTUAN UMUM\n\n"
    "Pasal 1\n\n"
    "Dalam Qanun ini yang dimaksud dengan Pemerintah Aceh adalah unsur penyelenggara "
    "pemerintahan Aceh yang terdiri atas Gubernur dan perangkat daerah Aceh.\n\n"
    "Pasal 2\n\n"
    "Retribusi pelayanan kesehatan dipungut atas pelayanan di pusat kesehatan masyarakat.\n"
)


@dataclass
class RecordingObserver(PipelineObserver):
    """Keeps every milestone in order, as the Kafka publisher would receive them."""

    events: list[tuple[str, UUID | None, dict[str, Any] | None, str | None]] = field(
        default_factory=list
    )

    def milestone(
        self,
        key: str,
        *,
        document_id: UUID | None,
        meta: dict[str, Any] | None,
        error: str | None = None,
        at: datetime | None = None,
    ) -> None:
        self.events.append((str(key), document_id, meta, error))

    @property
    def keys(self) -> list[str]:
        return [key for key, *_ in self.events]


class CountingEmbedder(LocalE5Embedder):
    """The real local model, counting the passages it actually had to compute."""

    def __init__(self, model_id: str = "multilingual-e5-small-q4") -> None:
        super().__init__(model_id)
        self.computed = 0

    def _passages(self, texts: list[str]) -> list[list[float]]:
        self.computed += len(texts)
        return super()._passages(texts)


def doc_id(result: IngestResult) -> UUID:
    assert result.document_id is not None, result.error
    return result.document_id


def make_request(
    key: str,
    fmt: str = "txt",
    *,
    source_key: str | None = None,
    source_version: str = "2026-07-23T10:15:30Z",
    source_type: str = "JDIH",
    title: str | None = None,
    title_from_partner: bool = False,
    source_metadata: dict[str, str] | None = None,
) -> IngestRequest:
    name = key.rsplit("/", 1)[-1]
    return IngestRequest(
        job=None,
        storage_key=key,
        format=fmt,
        parser_file_name=name,
        mime_type={"txt": "text/plain", "pdf": "application/pdf"}.get(fmt, ""),
        title=title or name,
        title_from_partner=title_from_partner,
        source_type=source_type,
        source_key=source_key or str(uuid.uuid4()),
        source_version=source_version,
        source_metadata=source_metadata or {},
        provenance=Provenance(registry_id=str(uuid.uuid4()), collection_name="JDIH"),
    )


def text_pdf(text: str = LEGAL_TEXT) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(50, 50, 545, 800), text, fontsize=11)
    data: bytes = doc.tobytes()
    return data


def image_only_pdf(text: str = LEGAL_TEXT, pages: int = 1, *, dpi: int = 150) -> bytes:
    """A scan: each page is a picture of typeset text, with no text layer."""
    import pymupdf

    source = pymupdf.open(stream=text_pdf(text), filetype="pdf")
    picture = source[0].get_pixmap(dpi=dpi).tobytes("png")
    scan = pymupdf.open()
    for _ in range(pages):
        page = scan.new_page(width=595, height=842)
        page.insert_image(page.rect, stream=picture)
    data: bytes = scan.tobytes()
    return data


def upload_file(name: str, data: bytes, content_type: str = "text/plain") -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, io.BytesIO(data).read(), content_type=content_type)
