"""A manifest gives each file its metadata and title; a row naming a missing file is
reported with its line number and the other rows are imported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ingestion.models import Document
from tests.bulk_import.helpers import ImportRun, write

pytestmark = pytest.mark.django_db

MANIFEST = """file,jenis,nomor,tahun,judul,status_berlaku,url
2024/5.txt,Peraturan Daerah,5,2024,Retribusi Pasar,Berlaku,https://jdih.example.go.id/perda/5-2024
hilang.txt,Peraturan Daerah,9,2024,Yang Hilang,Berlaku,
6-2024.md,Peraturan Daerah,6,2024,Pajak Hotel,Dicabut,
"""


def test_the_missing_file_is_reported_with_its_line_and_the_others_keep_their_metadata(
    corpus: Path, import_corpus: Callable[..., ImportRun]
) -> None:
    manifest = write(corpus, "manifest.csv", MANIFEST)

    run = import_corpus("--manifest", str(manifest))

    missing = run.row("hilang.txt")
    assert (missing["status"], missing["line"], missing["reason"]) == (
        "failed",
        "3",
        "Berkas tidak ditemukan",
    )
    assert run.row("2024/5.txt")["status"] == "indexed"
    assert run.row("6-2024.md")["line"] == "4"
    five = Document.objects.get(metadata__source_key="import:import_corpus:2024/5.txt")
    assert five.title == "Retribusi Pasar"
    assert five.source["url"] == "https://jdih.example.go.id/perda/5-2024"
    assert (five.source["nomor"], five.source["tahun"]) == ("5", "2024")
    six = Document.objects.get(metadata__source_key="import:import_corpus:6-2024.md")
    assert six.in_force is False  # status_berlaku from the manifest
    assert "Berkas tidak ditemukan" in run.stdout
