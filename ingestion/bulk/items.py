"""The files an import is asked for: folders, globs and manifest rows.

Each becomes one :class:`ImportItem` with a stable ``relpath`` (its identity within the
corpus, part of the source key, so a second run finds what the first one stored). A
manifest row that names a missing file is an item too, with its ``problem`` and its line
number: it is reported, never fatal.
"""

from __future__ import annotations

import csv
import glob
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST_COLUMNS = ("file", "jenis", "nomor", "tahun", "judul", "status_berlaku", "url")
# Manifest columns stored as sourceMetadata (judul is also the display title).
METADATA_COLUMNS = ("jenis", "nomor", "tahun", "judul", "status_berlaku", "url")
MISSING_FILE = "Berkas tidak ditemukan"


class ManifestError(ValueError):
    """A manifest that cannot be read at all (no such file, no ``file`` column)."""


@dataclass(frozen=True, slots=True)
class ImportItem:
    path: Path
    relpath: str
    line: int | None = None  # the manifest line, when the item comes from one
    title: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    problem: str | None = None

    @property
    def where(self) -> str:
        """How a person finds the item again: the file, with its manifest line."""
        return f"{self.relpath} (baris {self.line})" if self.line else self.relpath


def _visible_files(root: Path) -> Iterable[Path]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and not any(
            part.startswith(".") for part in path.relative_to(root).parts
        ):
            yield path


def _is_glob(arg: str) -> bool:
    return any(char in arg for char in "*?[")


def _glob_base(pattern: str) -> Path:
    """The directory before the first magic part of a glob pattern."""
    parts = Path(pattern).parts
    plain = [p for p in parts[: next((i for i, p in enumerate(parts) if _is_glob(p)), len(parts))]]
    return Path(*plain) if plain else Path(".")


def _relative(path: Path, base: Path) -> str:
    """``base``'s own name and the path below it: ``uu/2003/13.md`` for ``.../uu``."""
    below = path.resolve().relative_to(base.resolve())
    return (Path(base.resolve().name) / below).as_posix()


def from_paths(args: Sequence[str]) -> list[ImportItem]:
    """Folders (recursively, hidden files left out), globs and single files, each once."""
    found: dict[Path, ImportItem] = {}
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            pairs = [(p, path) for p in _visible_files(path)]
        elif path.is_file():
            pairs = [(path, path.parent)]
        elif _is_glob(arg):
            base = _glob_base(arg)
            matched = sorted(Path(p) for p in glob.glob(arg, recursive=True))
            pairs = [(p, base) for p in matched if p.is_file()]
        else:
            found[path] = ImportItem(path, arg, problem=MISSING_FILE)
            continue
        for file, base in pairs:
            found.setdefault(file.resolve(), ImportItem(file, _relative(file, base)))
    return list(found.values())


def _clean(value: str | None) -> str:
    return " ".join((value or "").split())


def from_manifest(manifest: Path) -> list[ImportItem]:
    """One item per row; ``file`` is relative to the manifest's folder."""
    try:
        handle = manifest.open(newline="", encoding="utf-8-sig")
    except OSError as exc:
        raise ManifestError(f"Manifest tidak dapat dibaca: {manifest} ({exc.strerror})") from exc
    with handle:
        reader = csv.DictReader(handle)
        columns = [c.strip().lower() for c in reader.fieldnames or []]
        if "file" not in columns:
            raise ManifestError(f"Manifest {manifest} tidak memiliki kolom 'file'")
        reader.fieldnames = columns
        return [_manifest_item(manifest.parent, row, reader.line_num) for row in reader]


def _manifest_item(folder: Path, row: dict[str, str | None], line: int) -> ImportItem:
    name = _clean(row.get("file"))
    metadata = {c: _clean(row.get(c)) for c in METADATA_COLUMNS if _clean(row.get(c))}
    title = metadata.get("judul") or None
    path = folder / name
    if not name or not path.is_file():
        return ImportItem(path, name or "?", line, title, metadata, problem=MISSING_FILE)
    return ImportItem(path, Path(name).as_posix(), line, title, metadata)
