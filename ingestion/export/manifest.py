"""The export's ``manifest.json``: what it holds, and the checksum of every file in it.

An export is whole only when its manifest is there and every file it lists has the
listed size and sha256; :func:`verify` names the first path that is not.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

FORMAT = "aceh-rag-corpus-export"
# 1: the first format. A reader for every version this code can still read is listed in
# ingestion.export.reader.READERS; a newer one is refused.
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
ORIGINALS = "originals"
ROWS = "rows"
_BLOCK = 1024 * 1024


class ExportError(Exception):
    """An export that cannot be read or trusted; ``str()`` is shown to the operator."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(f"{message}: {path}" if path else message)
        self.path = path


def app_version() -> str:
    try:
        return version("aceh-rag")
    except PackageNotFoundError:
        return "unknown"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while block := source.read(_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def original_path(sha256: str) -> str:
    """Where an original lives inside the export: under its checksum."""
    return f"{ORIGINALS}/{sha256[:2]}/{sha256}"


def rows_path(table: str) -> str:
    return f"{ROWS}/{table}.jsonl"


@dataclass
class Manifest:
    created_at: str
    embedding_model: str
    with_derived: bool
    counts: dict[str, int] = field(default_factory=dict)
    # relative path → {"sha256", "size"}
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    # document id → sha256 of the original exported for it
    originals: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    format_version: int = FORMAT_VERSION
    app_version: str = field(default_factory=app_version)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "formatVersion": self.format_version,
            "appVersion": self.app_version,
            "createdAt": self.created_at,
            "embeddingModel": self.embedding_model,
            "withDerived": self.with_derived,
            "counts": self.counts,
            "originals": self.originals,
            "warnings": self.warnings,
            "files": self.files,
        }

    def write(self, root: Path) -> None:
        text = json.dumps(self.to_json(), indent=2, sort_keys=True, ensure_ascii=False)
        (root / MANIFEST).write_text(text + "\n", encoding="utf-8")


def load(root: Path) -> Manifest:
    """The manifest of ``root``, refused when it is missing, unreadable or too new."""
    path = root / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ExportError("Ekspor tidak lengkap: manifest tidak ada", MANIFEST) from exc
    except (OSError, ValueError) as exc:
        raise ExportError("Manifest ekspor tidak dapat dibaca", MANIFEST) from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError("Berkas ini bukan manifest ekspor Aceh RAG", MANIFEST)
    found = data.get("formatVersion")
    if not isinstance(found, int) or found > FORMAT_VERSION:
        raise ExportError(
            f"Versi format ekspor {found} lebih baru dari yang dapat dibaca aplikasi ini"
            f" (paling tinggi {FORMAT_VERSION}); perbarui aplikasi lalu ulangi",
            MANIFEST,
        )
    if found < 1:
        raise ExportError(f"Versi format ekspor {found} tidak dikenal", MANIFEST)
    return Manifest(
        created_at=str(data.get("createdAt", "")),
        embedding_model=str(data.get("embeddingModel", "")),
        with_derived=bool(data.get("withDerived")),
        counts=dict(data.get("counts") or {}),
        files=dict(data.get("files") or {}),
        originals=dict(data.get("originals") or {}),
        warnings=list(data.get("warnings") or []),
        format_version=found,
        app_version=str(data.get("appVersion", "")),
    )


def verify(root: Path) -> Manifest:
    """The manifest, once every listed file is present with its size and checksum."""
    manifest = load(root)
    for relative in sorted(manifest.files):
        entry = manifest.files[relative]
        path = root / relative
        if ".." in Path(relative).parts or not path.is_file():
            raise ExportError("Berkas ekspor hilang", relative)
        if path.stat().st_size != int(entry.get("size", -1)):
            raise ExportError("Ukuran berkas ekspor tidak cocok (terpotong?)", relative)
        if sha256_file(path) != entry.get("sha256"):
            raise ExportError("Checksum berkas ekspor tidak cocok (diubah?)", relative)
    for table, count in manifest.counts.items():
        if rows_path(table) not in manifest.files:
            raise ExportError("Berkas baris tidak tercantum di manifest", rows_path(table))
        if _line_count(root / rows_path(table)) != count:
            raise ExportError("Jumlah baris tidak cocok dengan manifest", rows_path(table))
    return manifest


def _line_count(path: Path) -> int:
    with path.open("rb") as source:
        return sum(1 for _ in source)
