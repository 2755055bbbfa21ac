"""A folder's regulations are indexed by the upload's pipeline, with stable source keys;
empty, non-regulation and duplicate files are counted and never stop the import."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ingestion.models import Document, DocumentStatus, IngestionJob, JobOrigin, JobState
from tests.bulk_import.helpers import ImportRun, write

pytestmark = pytest.mark.django_db


def test_each_regulation_of_the_folder_becomes_an_indexed_document_with_its_citation(
    corpus: Path, import_corpus: Callable[..., ImportRun]
) -> None:
    run = import_corpus(str(corpus), "--collection", "banjarnegara")

    assert run.statuses() == {"perda/2024/5.txt": "indexed", "perda/6-2024.md": "indexed"}
    documents = {d.source_key: d for d in Document.objects.all()}
    assert set(documents) == {
        "import:banjarnegara:perda/2024/5.txt",
        "import:banjarnegara:perda/6-2024.md",
    }
    five = documents["import:banjarnegara:perda/2024/5.txt"]
    assert five.status == DocumentStatus.INDEXED
    assert five.source_type == "JDIH"
    assert five.collection_name == "banjarnegara"
    assert five.source.get("sourceSystem") == "import_corpus"
    assert five.regulation_key and five.chunks.filter(indexed=True).exists()
    assert run.row("perda/2024/5.txt")["citation"] == five.citation
    jobs = IngestionJob.objects.filter(origin=JobOrigin.UPLOAD)
    assert {j.state for j in jobs} == {JobState.DONE} and jobs.count() == 2
    assert "indexed 2" in run.stdout


def test_an_empty_a_non_regulation_and_a_duplicate_file_are_reported_and_the_rest_imported(
    corpus: Path, import_corpus: Callable[..., ImportRun]
) -> None:
    write(corpus, "kosong.txt", "")
    write(corpus, "catatan.txt", "Daftar belanja kantor: kertas, tinta, dan map.\n")
    write(corpus, "salinan/5.txt", (corpus / "2024/5.txt").read_text(encoding="utf-8"))
    write(corpus, "gambar.gif", b"GIF89a")

    run = import_corpus(str(corpus))

    assert run.row("perda/kosong.txt")["status"] == "failed"
    assert run.row("perda/kosong.txt")["reason"] == "Berkas kosong"
    assert run.row("perda/gambar.gif")["reason"].startswith("Format berkas tidak didukung")
    note = run.row("perda/catatan.txt")
    assert (note["status"], note["regulation"]) == ("indexed", "false")
    assert note["reason"].startswith("Bukan peraturan")
    copies = [run.row("perda/2024/5.txt"), run.row("perda/salinan/5.txt")]
    assert sorted(r["status"] for r in copies) == ["indexed", "skipped"]
    assert any(r["reason"].startswith("Duplikat dari") for r in copies)
    assert run.row("perda/6-2024.md")["status"] == "indexed"
    assert "terindeks tetapi bukan peraturan: 1" in run.stdout
    assert "gagal: 1 × Berkas kosong" in run.stdout
