"""An export written by a newer version of the format (or a version never defined) is
refused with a message saying so, before anything is read."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ingestion.export.manifest import FORMAT_VERSION


def _with_version(export: Path, version: int) -> None:
    path = export / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["formatVersion"] = version
    path.write_text(json.dumps(manifest))


def test_a_newer_format_asks_for_a_newer_application(small_export: Path) -> None:
    _with_version(small_export, FORMAT_VERSION + 1)
    with pytest.raises(CommandError, match=r"lebih baru.*perbarui aplikasi"):
        call_command("import_corpus_export", str(small_export), "--merge", stdout=StringIO())


def test_a_version_never_defined_is_refused(small_export: Path) -> None:
    _with_version(small_export, 0)
    with pytest.raises(CommandError, match=r"tidak dikenal: manifest\.json"):
        call_command("verify_export", str(small_export), stdout=StringIO())


def test_the_current_version_is_written(small_export: Path) -> None:
    manifest = json.loads((small_export / "manifest.json").read_text())
    assert manifest["formatVersion"] == FORMAT_VERSION
    assert manifest["format"] == "aceh-rag-corpus-export"
    assert manifest["appVersion"] and manifest["embeddingModel"]
    assert manifest["counts"]["ingestion.document"] == 3
    assert manifest["counts"]["ingestion.chunk"] == 6
