"""The end summary counts indexed, skipped, needs_review and failed by reason, and its
CSV has one row per file with the status, the reason and the document."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pytest

from ingestion.bulk.summary import CSV_COLUMNS
from ingestion.models import Document
from tests.bulk_import.helpers import ImportRun, write

pytestmark = pytest.mark.django_db


def test_the_csv_has_one_row_per_file_and_the_printout_counts_by_status_and_reason(
    corpus: Path, import_corpus: Callable[..., ImportRun], tmp_path: Path
) -> None:
    write(corpus, "kosong.md", "")
    import_corpus(str(corpus))
    write(corpus, "kosong2.md", "")

    run = import_corpus(str(corpus))

    with next(tmp_path.glob("summary-1.csv")).open(encoding="utf-8") as handle:
        assert tuple(csv.reader(handle).__next__()) == CSV_COLUMNS
    assert len(run.rows) == 4
    indexed = Document.objects.get(metadata__source_key="import:import_corpus:perda/6-2024.md")
    row = run.row("perda/6-2024.md")
    assert (row["status"], row["reason"], row["document_id"]) == (
        "skipped",
        "Sudah terindeks",
        str(indexed.pk),
    )
    assert float(row["seconds"]) >= 0
    assert "indexed 0, needs_review 0, skipped 2, failed 2" in run.stdout
    assert "dilewati: 2 × Sudah terindeks" in run.stdout
    assert "gagal: 2 × Berkas kosong" in run.stdout
