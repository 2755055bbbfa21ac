"""``--dry-run`` says what a run would do (new, retry, already indexed) and writes nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ingestion.models import Document, IngestionJob
from tests.bulk_import.helpers import ImportRun, write

pytestmark = pytest.mark.django_db


def test_the_plan_names_each_file_and_no_row_or_object_is_written(
    corpus: Path, import_corpus: Callable[..., ImportRun], store_dir: Path
) -> None:
    import_corpus(str(corpus / "6-2024.md"))
    documents, jobs = Document.objects.count(), IngestionJob.objects.count()
    objects = sorted(store_dir.rglob("*"))
    write(corpus, "kosong.txt", "")

    run = import_corpus(str(corpus), "--dry-run")

    assert run.row("perda/2024/5.txt")["reason"] == "Akan diimpor"
    assert run.row("perda/6-2024.md")["reason"] == "Sudah terindeks"
    assert run.row("perda/kosong.txt")["reason"] == "Berkas kosong"
    assert (Document.objects.count(), IngestionJob.objects.count()) == (documents, jobs)
    assert sorted(store_dir.rglob("*")) == objects
