"""Builders for the UI tests: users in their roles, documents, chunks, jobs and events."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

import pymupdf
from django.contrib.auth.models import Group, User
from django.test import Client

from ingestion.models import (
    Chunk,
    Document,
    DocumentStatus,
    IngestionJob,
    JobOrigin,
    JobState,
    ReviewState,
    SourceType,
)

PASSWORD = "kata-sandi-uji-123"


def make_user(username: str, *, group: str | None = None, superuser: bool = False) -> User:
    if superuser:
        user = User.objects.create_superuser(username=username, email="", password=PASSWORD)
    else:
        user = User.objects.create_user(username=username, password=PASSWORD)
    if group:
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def make_document(**overrides: Any) -> Document:
    seed = uuid.uuid4().hex
    fields: dict[str, Any] = {
        "source_type": SourceType.JDIH,
        "title": f"Qanun Aceh {seed[:6]}",
        "file_name": "qanun.pdf",
        "mime_type": "application/pdf",
        "format": "pdf",
        "storage_key": f"jdih/{seed}.pdf",
        "checksum": hashlib.sha256(seed.encode()).hexdigest(),
        "status": DocumentStatus.INDEXED,
        "page_count": 3,
        "metadata": {
            "source_key": f"jdih-{seed[:8]}",
            "source_version": "2026-01-01T00:00:00Z",
            "source": {"nomor": "3", "tahun": "2026", "jenis": "Qanun", "wilayah": "Aceh"},
        },
    }
    fields.update(overrides)
    return Document.objects.create(**fields)


def make_chunks(document: Document, count: int, *, parked: bool = False) -> list[Chunk]:
    return Chunk.objects.bulk_create(
        [
            Chunk(
                document=document,
                ordinal=i,
                text=f"Pasal {i} teks hasil pindai yang perlu diperiksa {document.pk}",
                heading_path=f"BAB I › Pasal {i}",
                page_from=1 + i % 3,
                page_to=1 + i % 3,
                ocr_confidence=0.42 if parked else 0.97,
                indexed=not parked,
                review_state=ReviewState.PENDING if parked else ReviewState.NONE,
            )
            for i in range(count)
        ]
    )


def make_job(document: Document | None = None, **overrides: Any) -> IngestionJob:
    fields: dict[str, Any] = {
        "origin": JobOrigin.UPLOAD,
        "document": document,
        "state": JobState.DONE,
        "payload": {"title": "unggahan", "file_name": "unggahan.pdf"},
    }
    fields.update(overrides)
    return IngestionJob.objects.create(**fields)


class FixedEmbedder:
    """A deterministic stand-in for the e5 model where only the bookkeeping is under test."""

    model_id = "uji-tetap"

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.calls: list[list[str]] = []

    def embed_passages(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [[(len(t) % 7 + 1) / 10.0] * self.dim for t in texts]


def text_pdf(text: str, *, pages: int = 1) -> bytes:
    """A small real PDF with a text layer, one line per page."""
    document = pymupdf.open()
    for number in range(pages):
        page = document.new_page()
        page.insert_text((72, 90), f"{text} — halaman {number + 1}", fontsize=12)
    data = document.tobytes()
    document.close()
    return bytes(data)
