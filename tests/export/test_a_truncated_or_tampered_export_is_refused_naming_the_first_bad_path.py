"""verify_export and import_corpus_export refuse an export whose files do not match its
manifest — a changed byte, a cut-off file, a missing file, no manifest — naming the path,
and the import then writes nothing."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ingestion.models import Document


def _verify(export: Path) -> str:
    out = StringIO()
    call_command("verify_export", str(export), stdout=out)
    return out.getvalue()


def _refused(command: str, export: Path, *args: str) -> str:
    with pytest.raises(CommandError) as refused:
        call_command(command, str(export), *args, stdout=StringIO())
    return str(refused.value)


def _an_original(export: Path) -> Path:
    return sorted((export / "originals").rglob("*"))[-1]


def test_an_untouched_export_verifies(small_export: Path) -> None:
    assert "utuh" in _verify(small_export)


def test_a_changed_byte_in_an_original_is_named(small_export: Path) -> None:
    original = _an_original(small_export)
    data = bytearray(original.read_bytes())
    data[0] ^= 1
    original.write_bytes(bytes(data))
    relative = original.relative_to(small_export).as_posix()
    message = _refused("verify_export", small_export)
    assert "Checksum" in message and message.endswith(relative)


def test_a_cut_off_rows_file_is_named(small_export: Path) -> None:
    rows = small_export / "rows" / "ingestion.chunk.jsonl"
    rows.write_bytes(rows.read_bytes()[:-40])
    message = _refused("verify_export", small_export)
    assert "terpotong" in message and message.endswith("rows/ingestion.chunk.jsonl")


def test_a_missing_file_is_named(small_export: Path) -> None:
    (small_export / "rows" / "ingestion.reviewaction.jsonl").unlink()
    message = _refused("verify_export", small_export)
    assert "hilang" in message and message.endswith("rows/ingestion.reviewaction.jsonl")


def test_an_export_without_its_manifest_is_not_whole(small_export: Path) -> None:
    (small_export / "manifest.json").unlink()
    assert _refused("verify_export", small_export).endswith("manifest.json")


def test_the_import_of_a_tampered_export_writes_nothing(small_export: Path) -> None:
    Document.objects.all().delete()
    manifest = json.loads((small_export / "manifest.json").read_text())
    manifest["counts"]["ingestion.document"] += 1
    (small_export / "manifest.json").write_text(json.dumps(manifest))
    message = _refused("import_corpus_export", small_export, "--no-progress")
    assert message.endswith("rows/ingestion.document.jsonl")
    assert not Document.objects.exists()
