"""Fixtures of the bulk import tests: a file store, a corpus folder and the command."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bulk_import.helpers import ImportRun, regulation_text, run_import, write
from tests.object_store import file_object_store


@pytest.fixture
def store_dir(tmp_path: Path, settings: Any) -> Iterator[Path]:
    with file_object_store(tmp_path, settings, max_retries=1) as root:
        yield root


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """``perda/``: two regulations, in a subfolder and at the top."""
    folder = tmp_path / "perda"
    write(folder, "2024/5.txt", regulation_text(5, 2024, "retribusi pasar", "tempat jual beli"))
    write(folder, "6-2024.md", regulation_text(6, 2024, "pajak hotel", "pungutan atas hotel"))
    return folder


@pytest.fixture
def import_corpus(tmp_path: Path, store_dir: Path) -> Callable[..., ImportRun]:
    """Run ``manage.py import_corpus ARGS…``; the summary CSV is read back."""
    runs = iter(range(1000))

    def run(*args: str) -> ImportRun:
        return run_import(*args, summary=tmp_path / f"summary-{next(runs)}.csv")

    return run
