"""``--zip`` writes one archive (and no folder); verify_export reads it as it is."""

from __future__ import annotations

import zipfile
from io import StringIO
from pathlib import Path
from uuid import UUID

from django.core.management import call_command

from tests.export.small import export


def test_the_archive_holds_the_manifest_and_verifies(small: list[UUID], tmp_path: Path) -> None:
    output = export(tmp_path / "ekspor", "--zip")
    archive = tmp_path / "ekspor.zip"
    assert str(archive) in output
    assert not (tmp_path / "ekspor").exists()
    with zipfile.ZipFile(archive) as opened:
        assert "manifest.json" in opened.namelist()
    out = StringIO()
    call_command("verify_export", str(archive), stdout=out)
    assert "utuh" in out.getvalue()
