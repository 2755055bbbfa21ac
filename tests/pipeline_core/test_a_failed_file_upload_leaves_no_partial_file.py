"""A local-directory put that fails midway leaves neither the object nor a temp file."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ingestion.storage import FileStorage


class BrokenUpload(io.RawIOBase):
    """Gives one chunk, then the client's connection drops."""

    def __init__(self) -> None:
        self.calls = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        self.calls += 1
        if self.calls > 1:
            raise ConnectionResetError("upload aborted")
        return b"x" * 1024


def test_an_interrupted_put_leaves_the_directory_as_it_was(tmp_path: Path) -> None:
    store = FileStorage(tmp_path)
    with pytest.raises(ConnectionResetError):
        store.put("uploads/ab/qanun.txt", BrokenUpload())  # type: ignore[arg-type]
    assert [p.name for p in (tmp_path / "uploads" / "ab").iterdir()] == []
