"""A parser that raises on one file, or a file the parser cannot read, fails that file
alone; the files after it are imported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ingestion.errors import INTERNAL_ERROR
from ingestion.pipeline import runner
from tests.bulk_import.helpers import ImportRun, write

pytestmark = pytest.mark.django_db


def test_a_crashing_parser_and_a_broken_docx_fail_alone(
    corpus: Path, import_corpus: Callable[..., ImportRun], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(corpus, "0-racun.txt", "PERATURAN DAERAH NOMOR 1 TAHUN 2020\nPasal 1\nRacun.\n")
    write(corpus, "1-rusak.docx", b"PK\x03\x04 bukan arsip docx")
    real_parse = runner.parse

    def parse(path: Path, fmt: str, limits: Any) -> Any:
        if b"Racun." in Path(path).read_bytes():
            raise RuntimeError("parser library crashed")
        return real_parse(path, fmt, limits)

    monkeypatch.setattr(runner, "parse", parse)

    run = import_corpus(str(corpus))

    assert run.row("perda/0-racun.txt")["status"] == "failed"
    assert run.row("perda/0-racun.txt")["reason"] == INTERNAL_ERROR
    assert run.row("perda/1-rusak.docx")["status"] == "failed"
    assert run.row("perda/2024/5.txt")["status"] == "indexed"
    assert run.row("perda/6-2024.md")["status"] == "indexed"
