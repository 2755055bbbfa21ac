"""``import_corpus_export``: rebuild an instance from an export, in one transaction.

The export is verified first (every checksum), so a truncated or tampered one is refused
before anything is written. Rows are inserted in the order of ``tables.TABLES``; integer
keys are given anew and every reference is mapped, so the same code serves an empty
database and ``--merge``. A reference to a parent that cascades (a chunk's document, a
milestone's job) means the row belongs to that parent: it comes in only with it. Without
derived data each document is run through the pipeline again from its original; the
reviewers' decisions and corrected text are then put back, and each document row gets
its exported values (status, in-force, times) again. Any failure rolls everything back,
and the originals this import put into storage are deleted again.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.db import models, transaction
from tqdm import tqdm

from ingestion.export import manifest as mf
from ingestion.export.rows import columns
from ingestion.export.tables import TABLES, Kind, Table, stored_fields
from ingestion.models import COMPLETED_STATUSES, Chunk, Document, RegulationRelation
from ingestion.pipeline import identity
from ingestion.pipeline.embed import embed_passages_cached, get_embedder, passage_text
from ingestion.pipeline.request import IngestRequest, Outcome
from ingestion.pipeline.runner import ingest
from ingestion.relations.graph import reconsolidate
from ingestion.storage import get_storage

log = logging.getLogger(__name__)

_BATCH = 500
_MISSING = object()
# Format versions this code reads: a row reader each (an older format gets its own).
READERS: dict[int, Callable[[Path, str], Iterator[dict[str, Any]]]] = {}


@dataclass(frozen=True)
class ImportOptions:
    merge: bool = False
    progress: bool = False
    stream: IO[str] | None = None


@dataclass
class ImportResult:
    counts: dict[str, int] = field(default_factory=dict)  # rows inserted per table
    skipped: dict[str, int] = field(default_factory=dict)  # rows already there (merge)
    reingested: int = 0
    used_derived: bool = False
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)


class ImportRefused(mf.ExportError):
    """The database or the export does not allow this import."""


def _read_v1(root: Path, table: str) -> Iterator[dict[str, Any]]:
    import json

    path = root / mf.rows_path(table)
    if not path.is_file():
        return
    with path.open(encoding="utf-8") as source:
        for line in source:
            yield json.loads(line)


READERS[1] = _read_v1


@contextmanager
def opened(source: Path) -> Iterator[Path]:
    """The export's folder: ``source`` itself, or a zip unpacked into a temporary one."""
    if source.is_dir():
        yield source
        return
    if not zipfile.is_zipfile(source):
        raise mf.ExportError("Ekspor tidak ditemukan (bukan folder atau zip)", str(source))
    work = Path(tempfile.mkdtemp(prefix="corpus-import-"))
    try:
        with zipfile.ZipFile(source) as archive:
            archive.extractall(work)  # extractall drops ".." and absolute names
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def instance_is_empty() -> bool:
    """No row in any exported table of the project's own apps (users may exist)."""
    own = {t.model for t in TABLES if t.model._meta.app_label in {"ingestion", "partner_events"}}
    return not any(m._default_manager.exists() for m in own)


def import_export(source: Path, options: ImportOptions) -> ImportResult:
    started = time.monotonic()
    with opened(source) as root:
        manifest = mf.verify(root)
        if not options.merge and not instance_is_empty():
            raise ImportRefused(
                "Basis data tidak kosong; impor ke instans kosong, atau pakai --merge"
                " untuk menggabungkan menurut aturan identitas dokumen"
            )
        importer = _Importer(root, manifest, options)
        try:
            with transaction.atomic(), _raw_times():
                importer.run()
        except BaseException:
            importer.remove_placed()
            raise
    importer.result.seconds = time.monotonic() - started
    return importer.result


@contextmanager
def _raw_times() -> Iterator[None]:
    """Insert the exported times as they are: auto_now(_add) would stamp the import's."""
    switched = []
    for table in TABLES:
        for f in stored_fields(table.model):
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                switched.append((f, f.auto_now, f.auto_now_add))  # type: ignore[attr-defined]
                f.auto_now = f.auto_now_add = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for f, now, now_add in switched:
            f.auto_now, f.auto_now_add = now, now_add  # type: ignore[attr-defined]


def _label(model: type[models.Model]) -> str:
    return model._meta.label


def _auto_pk(model: type[models.Model]) -> bool:
    return model._meta.pk.get_internal_type() in {"AutoField", "BigAutoField", "SmallAutoField"}


class _Importer:
    def __init__(self, root: Path, manifest: mf.Manifest, options: ImportOptions) -> None:
        self.root = root
        self.manifest = manifest
        self.options = options
        self.read = READERS[manifest.format_version]
        self.maps: dict[str, dict[Any, Any]] = {}
        self.inserted: dict[str, set[Any]] = {}
        self.placed: list[str] = []
        self.documents: dict[Any, Any] = {}  # pk → the Document row as exported
        self.result = ImportResult()
        same_model = manifest.embedding_model == get_embedder().model_id
        self.use_derived = manifest.with_derived and same_model
        self.result.used_derived = self.use_derived
        if manifest.with_derived and not same_model:
            self.result.warnings.append(
                f"model embedding ekspor ({manifest.embedding_model}) berbeda dari instans ini;"
                " data turunan diabaikan, dokumen diproses ulang"
            )
        total = sum(manifest.counts.values())
        self.bar = tqdm(
            total=total,
            desc="impor",
            unit="baris",
            file=options.stream,
            disable=not options.progress,
        )

    def run(self) -> None:
        with self.bar:
            for table in TABLES:
                if table.name not in self.manifest.counts:
                    continue  # not in this export (derived data left out)
                self._table(table)
            self._restore_documents()
            # Consolidated texts are derived from the rows just written: rebuilt, not imported.
            reconsolidate(self.documents.values())

    def _table(self, table: Table) -> None:
        if table.kind is Kind.DERIVED and not self.use_derived:
            self.bar.update(self.manifest.counts[table.name])
            return
        if table.name == "ingestion.regulationrelation":
            if not self.use_derived:
                self._reingest()
            self._drop_recomputed_relations()
        if table.name == "ingestion.chunk.review":
            self._apply_reviews(self.read(self.root, table.name))
            return
        self._insert(table, self.read(self.root, table.name))

    # --- generic rows ---------------------------------------------------------------------

    def _insert(self, table: Table, source: Iterator[dict[str, Any]]) -> None:
        model = table.model
        label = _label(model)
        self.maps.setdefault(label, {})
        self.inserted.setdefault(label, set())
        batch: list[tuple[Any, models.Model, Any]] = []
        for row in source:
            self.bar.update(1)
            built = self._build(table, row)
            if built is None:
                self.result.skipped[table.name] = self.result.skipped.get(table.name, 0) + 1
                continue
            batch.append(built)
            if len(batch) >= _BATCH:
                self._flush(table, batch)
                batch = []
        self._flush(table, batch)

    def _build(self, table: Table, row: dict[str, Any]) -> tuple[Any, models.Model, Any] | None:
        """(old pk, unsaved instance, old self-reference) or None when not inserted."""
        model = table.model
        values: dict[str, Any] = {}
        self_ref = None
        for f in columns(table):
            raw = row.get(f.attname)
            if f.is_relation and f.related_model is model:
                self_ref, values[f.attname] = raw, None
                continue
            if f.is_relation:
                mapped = self._reference(f, raw)
                if mapped is _MISSING:
                    return None
                values[f.attname] = mapped
                continue
            values[f.attname] = None if raw is None else f.to_python(raw)
        if "chunk_ordinal" in row:
            values["chunk_id"] = self._chunk_by_ordinal(values, row["chunk_ordinal"])
        old_pk = values.get(model._meta.pk.attname)
        existing = self._existing(table, values)
        if existing is not None:
            self.maps[_label(model)][old_pk] = existing
            return None
        if _auto_pk(model):
            values[model._meta.pk.attname] = None
        return old_pk, model(**values), self_ref

    def _reference(self, f: Any, raw: Any) -> Any:
        """The local key for an exported reference; _MISSING when the row must not come in."""
        if raw is None:
            return None
        target = _label(f.related_model)
        old = f.target_field.to_python(raw)
        owned = f.remote_field.on_delete is models.CASCADE
        if owned:
            # A row of a parent that was already here (merge) is that parent's business.
            new = self.maps.get(target, {}).get(old, _MISSING)
            return new if new in self.inserted.get(target, ()) else _MISSING
        return self.maps.get(target, {}).get(old)  # a reference left behind becomes empty

    def _existing(self, table: Table, values: dict[str, Any]) -> Any:
        """The pk of the local row this one is (natural key, same pk, identity rules)."""
        model = table.model
        if table.natural_key:
            names = [getattr(model._meta.get_field(n), "attname", n) for n in table.natural_key]
            lookup = {name: values[name] for name in names}
            if all(v is not None for v in lookup.values()):
                found = model._default_manager.filter(**lookup).values_list("pk", flat=True)
                if (pk := found.first()) is not None:
                    return pk
        if _auto_pk(model) or not self.options.merge:
            return None
        pk = values[model._meta.pk.attname]
        if model._default_manager.filter(pk=pk).exists():
            return pk
        if model is Document:
            return self._same_document(values)
        return None

    def _same_document(self, values: dict[str, Any]) -> Any:
        """Identity rules for a merge: unchanged content or the same identity stays local."""
        metadata = values.get("metadata") or {}
        request = IngestRequest(
            job=None,
            storage_key=values["storage_key"],
            format=values["format"],
            parser_file_name=values["file_name"],
            mime_type=values["mime_type"],
            title=values["title"],
            source_type=values["source_type"],
            source_key=str(metadata.get("source_key", "")),
            source_version=str(metadata.get("source_version", "")),
        )
        decision = identity.decide(request, values["checksum"])
        if decision.action is identity.Action.NEW or decision.document is None:
            return None
        if decision.action is not identity.Action.SKIP:
            self.result.warnings.append(
                f"dokumen {values['id']}: {request.source_key} versi {request.source_version}"
                " sudah ada dengan isi lain; versi lokal dipertahankan"
            )
        return decision.document.pk

    def _flush(self, table: Table, batch: list[tuple[Any, models.Model, Any]]) -> None:
        if not batch:
            return
        model = table.model
        label = _label(model)
        if model is Document:
            self._place_originals([obj for _, obj, _ in batch])
        model._default_manager.bulk_create([obj for _, obj, _ in batch])
        for old_pk, obj, _ in batch:
            self.maps[label][old_pk] = obj.pk
            self.inserted[label].add(obj.pk)
        self.result.counts[table.name] = self.result.counts.get(table.name, 0) + len(batch)
        if model is Document:
            self.documents.update({obj.pk: obj for _, obj, _ in batch})
        self._link_self(model, batch)

    def _link_self(self, model: type[models.Model], batch: list[tuple[Any, Any, Any]]) -> None:
        refs = [(obj, ref) for _, obj, ref in batch if ref is not None]
        if not refs:
            return
        name: Any = next(
            f for f in stored_fields(model) if f.is_relation and f.related_model is model
        )
        mapping = self.maps[_label(model)]
        for obj, ref in refs:
            setattr(obj, name.attname, mapping.get(name.target_field.to_python(ref)))
        model._default_manager.bulk_update([obj for obj, _ in refs], [name.name])

    # --- originals and the pipeline -------------------------------------------------------

    def _place_originals(self, documents: list[Any]) -> None:
        """Put each inserted document's original at its storage key (before its row)."""
        storage = get_storage()
        for document in documents:
            sha = self.manifest.originals.get(str(document.pk))
            key = document.storage_key
            if sha is None:
                self.result.warnings.append(f"dokumen {document.pk}: ekspor tanpa berkas asli")
                continue
            if storage.exists(key):
                continue
            with (self.root / mf.original_path(sha)).open("rb") as source:
                storage.put(key, source)
            self.placed.append(key)

    def remove_placed(self) -> None:
        storage = get_storage()
        for key in self.placed:
            try:
                storage.delete(key)
            except Exception:
                log.exception("import rollback: %s not deleted from storage", key)

    def _reingest(self) -> None:
        """Derived data not imported: each completed document is run again from its original."""
        # In arrival order, as they were first ingested: chunks get their keys in the same
        # relative order, and search breaks ties of equal scores by chunk key.
        arrival = sorted(self.documents.values(), key=lambda d: (d.created_at, str(d.pk)))
        for document in arrival:
            pk = document.pk
            if document.status not in COMPLETED_STATUSES:
                continue
            if str(pk) not in self.manifest.originals:
                continue
            result = ingest(self._request(document))
            if result.outcome not in {Outcome.INDEXED, Outcome.NEEDS_REVIEW}:
                raise ImportRefused(
                    f"Dokumen {pk} gagal diproses ulang dari berkas aslinya ({result.error})",
                    mf.original_path(self.manifest.originals[str(pk)]),
                )
            self.result.reingested += 1

    def _request(self, document: Document) -> IngestRequest:
        return IngestRequest(
            job=None,
            storage_key=document.storage_key,
            format=document.format,
            parser_file_name=document.file_name,
            mime_type=document.mime_type,
            title=document.title,
            source_type=document.source_type,
            source_key=document.source_key,
            source_version=document.source_version,
            reprocess_document_id=document.pk,
        )

    def _drop_recomputed_relations(self) -> None:
        """The exported relations are the record; the pipeline's own copies go."""
        inserted = self.inserted.get(_label(Document), set())
        RegulationRelation.objects.filter(source_document_id__in=inserted).delete()

    # --- reviews --------------------------------------------------------------------------

    def _chunk_by_ordinal(self, values: dict[str, Any], ordinal: Any) -> Any:
        if ordinal is None:
            return None
        found = Chunk.objects.filter(document_id=values["document_id"], ordinal=ordinal)
        return found.values_list("pk", flat=True).first()

    def _apply_reviews(self, source: Iterator[dict[str, Any]]) -> None:
        """Reviewed chunks get their decision and corrected text back, never re-parked."""
        inserted = self.inserted.get(_label(Document), set())
        approved: list[Chunk] = []
        for row in source:
            self.bar.update(1)
            document_id = self.maps[_label(Document)].get(
                Document._meta.pk.to_python(row["document_id"])
            )
            if document_id is None or document_id not in inserted:
                continue
            chunk = Chunk.objects.filter(document_id=document_id, ordinal=row["ordinal"]).first()
            if chunk is None:
                raise ImportRefused(
                    f"Potongan {row['ordinal']} dokumen {document_id} tidak terbentuk kembali;"
                    " hasil tinjauannya tidak dapat dipulihkan",
                    mf.rows_path("ingestion.chunk.review"),
                )
            changed = chunk.text != row["text"]
            chunk.text, chunk.indexed, chunk.review_state = (
                row["text"],
                row["indexed"],
                row["review_state"],
            )
            fields = ["text", "indexed", "review_state"]
            if changed:  # the pipeline's vector was of the OCR text (see review.edit_chunk)
                chunk.embedding, chunk.embedding_model = None, ""
                fields += ["embedding", "embedding_model"]
            chunk.save(update_fields=fields)
            if changed and chunk.indexed:
                approved.append(chunk)
            self.result.counts["ingestion.chunk.review"] = (
                self.result.counts.get("ingestion.chunk.review", 0) + 1
            )
        self._embed(approved)

    def _embed(self, chunks: list[Chunk]) -> None:
        """An approved correction is searched by its corrected text, as review embeds it."""
        if not chunks:
            return
        embedder = get_embedder()
        texts = [passage_text(c.heading_path, c.text) for c in chunks]
        for chunk, vector in zip(chunks, embed_passages_cached(texts, embedder), strict=True):
            chunk.embedding = vector
            chunk.embedding_model = embedder.model_id
        Chunk.objects.bulk_update(chunks, ["embedding", "embedding_model"])

    def _restore_documents(self) -> None:
        """The exported document rows win over what the pipeline wrote back into them."""
        if not self.documents:
            return
        names = [f.name for f in stored_fields(Document) if not f.primary_key]
        Document.objects.bulk_update(list(self.documents.values()), names, batch_size=_BATCH)
