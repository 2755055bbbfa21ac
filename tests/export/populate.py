"""A populated instance as people leave it: regulations through the real pipeline (with
jobs and their timelines), relations between them, a reviewer's decisions and corrected
text, an API token, users in their roles."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

from django.contrib.auth.models import Group, User

from ingestion import review
from ingestion.jobs import JobProgressObserver
from ingestion.management.commands.ensure_admin import REVIEWER_GROUP
from ingestion.models import Chunk, Document, DocumentStatus, IngestionJob, JobOrigin, ReviewState
from ingestion.pipeline.request import IngestRequest, Provenance
from ingestion.pipeline.runner import ingest
from tests.api.helpers import issue_token
from tests.corpus import CORPUS
from tests.object_store import put_object
from tests.relations.helpers import amending, plain, repealing

PDF = CORPUS / "docs" / "perda_banjarnegara_8_2025_abstrak.pdf"


@dataclass(frozen=True)
class Populated:
    token: str
    documents: list[UUID]
    reviewed: UUID  # the document whose chunks a reviewer worked on


def _ingest(root: Path, name: str, data: bytes, title: str, fmt: str, user: User) -> UUID:
    key = put_object(root, f"docs/{name}", data)
    job = IngestionJob.objects.create(origin=JobOrigin.UPLOAD, created_by=user)
    request = IngestRequest(
        job=job,
        storage_key=key,
        format=fmt,
        parser_file_name=name,
        mime_type="application/pdf" if fmt == "pdf" else "text/plain",
        title=title,
        title_from_partner=True,
        source_type="JDIH",
        source_key=f"jdih:{name}",
        source_version="1",
        source_metadata={"nomor": name[:8]},
        provenance=Provenance(registry_id=name, collection_name="JDIH"),
    )
    result = ingest(request, JobProgressObserver(job))
    assert result.document_id is not None, result.error
    return result.document_id


def _review(document_id: UUID, reviewer: User) -> None:
    """Three chunks parked as a low OCR confidence parks them, then worked on."""
    chunks = list(Chunk.objects.filter(document_id=document_id).order_by("ordinal")[:3])
    assert len(chunks) == 3, "the reviewed document needs three chunks"
    Chunk.objects.filter(pk__in=[c.pk for c in chunks]).update(
        indexed=False, review_state=ReviewState.PENDING
    )
    Document.objects.filter(pk=document_id).update(status=DocumentStatus.NEEDS_REVIEW)
    corrected = chunks[0].text + "\nRetribusi pasar dikoreksi."
    review.approve_chunk(chunks[0].pk, user=reviewer, text=corrected)
    review.reject_chunk(chunks[1].pk, user=reviewer)
    review.edit_chunk(chunks[2].pk, user=reviewer, text=chunks[2].text + " (dikoreksi)")


def populate(root: Path) -> Populated:
    reviewer = User.objects.create_user("peninjau", password="rahasia-panjang-1")
    reviewer.groups.add(Group.objects.get_or_create(name=REVIEWER_GROUP)[0])
    uploader = User.objects.create_superuser("admin-uji", password="rahasia-panjang-2")
    target = "Peraturan Daerah Kabupaten Banjarnegara Nomor 5 Tahun 2020 tentang Retribusi Pasar"
    texts = [
        ("perda-5-2020.txt", plain("5", "2020"), "Perda Banjarnegara 5/2020"),
        ("perda-1-2024.txt", amending(target, number="1"), "Perda Banjarnegara 1/2024"),
        ("perda-9-2024.txt", repealing(target, number="9"), "Perda Banjarnegara 9/2024"),
        (
            "perda-3-2021.txt",
            plain("3", "2021", "PAJAK DAERAH") * 3,
            "Perda Banjarnegara 3/2021",
        ),
    ]
    documents = [
        _ingest(root, name, text.encode(), title, "txt", uploader) for name, text, title in texts
    ]
    if PDF.is_file():
        documents.append(_ingest(root, PDF.name, PDF.read_bytes(), "Perda 8/2025", "pdf", uploader))
    reviewed = max(documents, key=lambda d: Chunk.objects.filter(document_id=d).count())
    _review(reviewed, reviewer)
    return Populated(token=issue_token("klien-ekspor"), documents=documents, reviewed=reviewed)
