"""The round trip: export a populated instance, import it into a fresh database and store,
and find the same counts per table, the same /api/search results for 20 queries (same
citations, same order), the same review state of every chunk, the same in-force status of
every regulation and the same sha256 of every original — with or without derived data."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.export.conftest import Instance
from tests.export.populate import Populated
from tests.export.snapshot import differences, snapshot


@pytest.mark.parametrize("with_derived", [True, False], ids=["with-derived", "from-originals"])
def test_an_imported_export_answers_as_the_original_did(
    populated: Populated,
    fresh_instance: Callable[[], Instance],
    tmp_path: Path,
    with_derived: bool,
) -> None:
    export = tmp_path / "ekspor"
    extra = ["--with-derived"] if with_derived else []
    call_command("export_corpus", str(export), "--no-progress", *extra, stdout=StringIO())
    before = snapshot(populated.token)
    assert before["review"], "the populated instance has reviewed chunks"
    assert any(before["search"].values()), "the queries find something"

    target = fresh_instance()
    target.manage("import_corpus_export", str(export), "--no-progress")
    after = target.snapshot(populated.token)

    found = differences(before, after)
    assert found == [], "\n".join(line[-1500:] for line in found[:3])
