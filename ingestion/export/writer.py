"""``export_corpus``: the originals and the rows, from one snapshot, into a temporary
folder renamed into place at the end (a crash leaves no folder that looks whole).

Originals are copied before the rows that name them, and both are read inside one
REPEATABLE READ transaction, so an export of a running instance is consistent: every
document row has its original, and no row appears that the snapshot did not see.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
import time
import uuid
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.db import connection, transaction
from django.utils import timezone
from tqdm import tqdm

from ingestion.errors import StageError
from ingestion.export import manifest as mf
from ingestion.export import rows
from ingestion.export.tables import exported
from ingestion.models import Document
from ingestion.pipeline.embed import get_embedder
from ingestion.storage import get_storage

log = logging.getLogger(__name__)

_BLOCK = 1024 * 1024


@dataclass(frozen=True)
class ExportOptions:
    with_derived: bool = False
    compare_checksums: bool = False
    zip: bool = False
    progress: bool = False
    stream: IO[str] | None = None


@dataclass(frozen=True)
class ExportResult:
    path: Path
    documents: int
    originals_written: int
    originals_reused: int
    bytes: int
    seconds: float
    warnings: list[str]


@contextmanager
def snapshot() -> Iterator[None]:
    """One read-only REPEATABLE READ transaction (inside an outer one: that one's view)."""
    nested = connection.in_atomic_block
    with transaction.atomic():
        if not nested:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def export_corpus(target: Path, options: ExportOptions) -> ExportResult:
    started = time.monotonic()
    target = target.resolve()
    _check_target(target, options)
    previous = _previous(target) if options.compare_checksums else None
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.partial-", dir=target.parent))
    try:
        state = _Writer(work, previous, target, options)
        with snapshot():
            state.write()
        state.manifest.write(work)
        final = _publish(work, target, options.zip)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    result = ExportResult(
        path=final,
        documents=state.manifest.counts.get("ingestion.document", 0),
        originals_written=state.written,
        originals_reused=state.reused,
        bytes=_size(final),
        seconds=time.monotonic() - started,
        warnings=state.manifest.warnings,
    )
    log.info("export %s: %s documents in %.2fs", final, result.documents, result.seconds)
    return result


def _check_target(target: Path, options: ExportOptions) -> None:
    if options.zip and options.compare_checksums:
        raise mf.ExportError("--zip tidak dapat digabung dengan --compare-checksums")
    target.parent.mkdir(parents=True, exist_ok=True)
    final = _zip_name(target) if options.zip else target
    if final.is_dir() and any(final.iterdir()) and not (final / mf.MANIFEST).is_file():
        raise mf.ExportError("Folder tujuan berisi berkas lain, bukan ekspor", str(final))


def _previous(target: Path) -> dict[str, dict[str, Any]] | None:
    """The files of the export already in ``target`` (unreadable: a full export)."""
    try:
        return mf.load(target).files
    except mf.ExportError:
        return None


class _Writer:
    def __init__(
        self,
        work: Path,
        previous: dict[str, dict[str, Any]] | None,
        target: Path,
        options: ExportOptions,
    ) -> None:
        self.work = work
        self.previous = previous or {}
        self.target = target
        self.options = options
        self.written = 0
        self.reused = 0
        self.manifest = mf.Manifest(
            created_at=timezone.now().isoformat(),
            embedding_model=get_embedder().model_id,
            with_derived=options.with_derived,
        )

    def write(self) -> None:
        documents = list(
            Document.objects.order_by("created_at", "id").values_list(
                "id", "storage_key", "checksum"
            )
        )
        tables = exported(self.options.with_derived)
        totals = {t.name: rows.queryset(t).count() for t in tables}
        bar = tqdm(
            total=len(documents) + sum(totals.values()),
            desc="ekspor",
            unit="baris",
            file=self.options.stream,
            disable=not self.options.progress,
        )
        with bar:
            for pk, key, checksum in documents:
                self._original(str(pk), key, checksum)
                bar.update(1)
            for table in tables:
                self._rows(table.name, rows.read(table), bar.update)

    def _original(self, document_id: str, key: str, checksum: str) -> None:
        relative = mf.original_path(checksum)
        if relative in self.manifest.files:
            self.manifest.originals[document_id] = checksum
            return
        if self._reuse(relative):
            self.manifest.originals[document_id] = checksum
            return
        sha = self._copy_from_storage(document_id, key)
        if sha is None:
            return
        if sha != checksum:
            self.manifest.warnings.append(
                f"dokumen {document_id}: isi {key} kini berbeda dari checksum dokumen"
            )
        self.manifest.originals[document_id] = sha

    def _reuse(self, relative: str) -> bool:
        """An original the previous export already holds: linked, not read again."""
        entry = self.previous.get(relative)
        old = self.target / relative
        if entry is None or not old.is_file() or old.stat().st_size != entry.get("size"):
            return False
        dest = self.work / relative
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(old, dest)
        except OSError:
            shutil.copy2(old, dest)
        self.manifest.files[relative] = dict(entry)
        self.reused += 1
        return True

    def _copy_from_storage(self, document_id: str, key: str) -> str | None:
        staging = self.work / f".original-{uuid.uuid4().hex}"
        digest = hashlib.sha256()
        size = 0
        try:
            with get_storage().open(key) as source, staging.open("wb") as out:
                while block := source.read(_BLOCK):
                    digest.update(block)
                    size += len(block)
                    out.write(block)
        except (StageError, OSError) as exc:
            staging.unlink(missing_ok=True)
            self.manifest.warnings.append(f"dokumen {document_id}: berkas asli {key}: {exc}")
            log.warning("export: original of %s unreadable: %s", document_id, exc)
            return None
        sha = digest.hexdigest()
        relative = mf.original_path(sha)
        dest = self.work / relative
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging, dest)
        self.manifest.files[relative] = {"sha256": sha, "size": size}
        self.written += 1
        return sha

    def _rows(
        self, name: str, source: Iterator[dict[str, Any]], tick: Callable[[int], Any]
    ) -> None:
        relative = mf.rows_path(name)
        path = self.work / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256()
        count = 0
        size = 0
        with path.open("wb") as out:
            for row in source:
                line = (rows.dumps(row) + "\n").encode("utf-8")
                digest.update(line)
                size += len(line)
                out.write(line)
                count += 1
                tick(1)
        self.manifest.counts[name] = count
        self.manifest.files[relative] = {"sha256": digest.hexdigest(), "size": size}


def _zip_name(target: Path) -> Path:
    return target if target.suffix == ".zip" else target.with_name(target.name + ".zip")


def _publish(work: Path, target: Path, as_zip: bool) -> Path:
    """Rename the finished export into place; the old one goes only once the new is there."""
    if as_zip:
        final = _zip_name(target)
        partial = final.with_name(f".{final.name}.partial-{uuid.uuid4().hex[:8]}")
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(p for p in work.rglob("*") if p.is_file()):
                archive.write(path, path.relative_to(work).as_posix())
        os.replace(partial, final)
        shutil.rmtree(work)
        return final
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{uuid.uuid4().hex[:8]}")
        os.rename(target, old)
    os.rename(work, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return target


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
