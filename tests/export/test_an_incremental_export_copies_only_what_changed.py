"""``--compare-checksums`` refreshes the export in the same folder: originals it already
holds are kept (not read from storage again), new ones are added, and the result is a
whole export of the current state."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from uuid import UUID

from django.core.management import call_command

from tests.export.small import export, small_document


def test_only_the_new_original_is_copied(
    small: list[UUID], small_export: Path, store_dir: Path
) -> None:
    unchanged = sorted(p for p in (small_export / "originals").rglob("*") if p.is_file())
    inodes = {p.name: p.stat().st_ino for p in unchanged}
    added = small_document(store_dir, "empat", "isi dokumen empat")

    output = export(small_export, "--with-derived", "--compare-checksums")

    assert "1 berkas asli ditulis, 3 dipakai ulang" in output
    manifest = json.loads((small_export / "manifest.json").read_text())
    assert str(added) in manifest["originals"]
    assert manifest["counts"]["ingestion.document"] == 4
    for name, inode in inodes.items():
        assert (small_export / "originals" / name[:2] / name).stat().st_ino == inode
    call_command("verify_export", str(small_export), stdout=StringIO())


def test_no_partial_folder_is_left_beside_the_export(small_export: Path) -> None:
    export(small_export, "--compare-checksums")
    assert sorted(p.name for p in small_export.parent.iterdir()) == ["ekspor", "objects"]
