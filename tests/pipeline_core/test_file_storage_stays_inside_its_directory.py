"""A file:// store resolves keys inside its directory and refuses everything else."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest

from ingestion.errors import PermanentError
from ingestion.storage import FileStorage, ObjectMissing


@pytest.fixture
def store(tmp_path: Path) -> FileStorage:
    root = tmp_path / "store"
    root.mkdir()
    return FileStorage(root)


@pytest.mark.parametrize(
    "key", ["../secret.txt", "a/../../secret.txt", "/etc/passwd", "", "a/\x00b"]
)
def test_keys_that_escape_the_directory_are_refused_permanently(
    store: FileStorage, tmp_path: Path, key: str
) -> None:
    (tmp_path / "secret.txt").write_text("rahasia")
    with pytest.raises(PermanentError):
        store.download_to(key, tmp_path / "out", max_bytes=1000)


def test_a_symlink_pointing_out_of_the_directory_is_refused(
    store: FileStorage, tmp_path: Path
) -> None:
    (tmp_path / "secret.txt").write_text("rahasia")
    (store.root / "link.txt").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(PermanentError):
        store.open("link.txt")


def test_a_key_inside_the_directory_round_trips_with_its_sha256(
    store: FileStorage, tmp_path: Path
) -> None:
    store.put("documents/a1/perda.txt", io.BytesIO(b"isi dokumen"))
    fetched = store.download_to("documents/a1/perda.txt", tmp_path / "out", max_bytes=100)
    assert fetched.path.read_bytes() == b"isi dokumen"
    assert fetched.sha256 == hashlib.sha256(b"isi dokumen").hexdigest()
    assert fetched.size == len(b"isi dokumen")


def test_an_object_larger_than_the_cap_is_refused_and_leaves_no_file(
    store: FileStorage, tmp_path: Path
) -> None:
    store.put("big.txt", io.BytesIO(b"x" * 2048))
    with pytest.raises(PermanentError, match="melebihi batas ukuran"):
        store.download_to("big.txt", tmp_path / "out", max_bytes=1024)
    assert not (tmp_path / "out").exists()


def test_a_missing_key_is_reported_as_missing_not_as_a_crash(
    store: FileStorage, tmp_path: Path
) -> None:
    with pytest.raises(ObjectMissing):
        store.download_to("tidak-ada.txt", tmp_path / "out", max_bytes=100)
