"""A small instance built straight in the database (no pipeline): documents with their
originals in the store, chunks (one reviewed), a job with its timeline, a token."""

from __future__ import annotations

import hashlib
from io import StringIO
from pathlib import Path
from uuid import UUID

from django.core.management import call_command

from ingestion.jobs import record_milestone
from ingestion.models import Chunk, Document, IngestionJob, JobOrigin, ReviewState
from tests.api.helpers import issue_token
from tests.object_store import put_object
from tests.search.helpers import add_chunk, make_document


def small_document(root: Path, name: str, text: str, original: bytes | None = None) -> UUID:
    """A document whose original (``text`` unless given) is in the store, with two chunks."""
    data = original if original is not None else text.encode()
    document = make_document(f"Qanun uji {name}", source_key=f"uji:{name}")
    put_object(root, document.storage_key, data)
    Document.objects.filter(pk=document.pk).update(
        checksum=hashlib.sha256(data).hexdigest(),
        size_bytes=len(data),
        format="txt",
        mime_type="text/plain",
    )
    add_chunk(document, f"{text} bagian pertama")
    add_chunk(document, f"{text} bagian kedua", indexed=False)
    return document.pk


def small_instance(root: Path) -> list[UUID]:
    documents = [small_document(root, n, f"isi dokumen {n}") for n in ("satu", "dua", "tiga")]
    Chunk.objects.filter(indexed=False).update(review_state=ReviewState.REJECTED)
    job = IngestionJob.objects.create(origin=JobOrigin.UPLOAD, document_id=documents[0])
    record_milestone(job, "fetched")
    record_milestone(job, "indexed")
    issue_token("klien-kecil")
    return documents


def export(target: Path, *args: str) -> str:
    out = StringIO()
    call_command("export_corpus", str(target), "--no-progress", *args, stdout=out)
    return out.getvalue()
