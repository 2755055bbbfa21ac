"""An import into a database that holds documents is refused; with --merge the identity
rules decide: documents already there (same id, or unchanged content of the same source)
stay as they are, the missing ones come back with their chunks, reviews and jobs."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from uuid import UUID

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ingestion.models import Chunk, Document, IngestionJob, JobMilestone


def _import(export: Path, *args: str) -> str:
    out = StringIO()
    call_command("import_corpus_export", str(export), "--no-progress", *args, stdout=out)
    return out.getvalue()


def test_a_database_with_documents_is_refused(small_export: Path) -> None:
    with pytest.raises(CommandError, match=r"tidak kosong.*--merge"):
        _import(small_export)


def test_merging_an_export_of_the_same_instance_adds_nothing(small_export: Path) -> None:
    before = (Document.objects.count(), Chunk.objects.count(), JobMilestone.objects.count())
    _import(small_export, "--merge")
    after = (Document.objects.count(), Chunk.objects.count(), JobMilestone.objects.count())
    assert after == before


def test_a_document_lost_since_the_export_comes_back(small: list[UUID], small_export: Path) -> None:
    lost = small[0]
    Document.objects.filter(pk=lost).delete()
    IngestionJob.objects.all().delete()
    _import(small_export, "--merge")
    assert Document.objects.count() == 3
    assert Chunk.objects.filter(document_id=lost).count() == 2
    job = IngestionJob.objects.get(document_id=lost)
    assert list(job.milestones.values_list("milestone", flat=True)) == ["fetched", "indexed"]


def test_the_same_source_under_another_id_is_not_doubled(
    small: list[UUID], small_export: Path
) -> None:
    # The instance re-ingested the same bytes of the same source since: a new row id.
    kept = Document.objects.get(pk=small[1])
    Document.objects.filter(pk=kept.pk).delete()
    kept.pk = UUID(int=7)
    kept.save()
    _import(small_export, "--merge")
    key = kept.metadata["source_key"]
    assert list(Document.objects.filter(metadata__source_key=key).values_list("pk", flat=True)) == [
        kept.pk
    ]
