"""The doc.uploaded field table as data, plus the small value checks it relies on.

``FIELDS`` mirrors the contract's field table (name, required, type, Indonesian rule) and
carries the JSON Schema fragment of each field, so both the docs page and
``schemas.DOC_UPLOADED_SCHEMA`` are generated from one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ingestion.formats import FORMATS
from ingestion.sources import SourceType

DEFAULT_FILENAME_FIELD = "fileName"


# Only these descriptive keys survive from sourceMetadata; the order is the contract's.
SOURCE_METADATA_KEYS: tuple[str, ...] = (
    "judul",
    "tahun",
    "nomor",
    "jenis",
    "wilayah",
    "status_berlaku",
    "bidang_hukum",
    "url",
    "pdf_url",
    "detail_url",
    "bentuk_singkat",
    "catalogue_id",
    "catalogue_source",
    "content_type",
    "year",
)

# Regional collection names ("Provinsi Aceh", "Kabupaten Pidie", "Kota Banda Aceh") are JDIH.
REGIONAL_PREFIXES: tuple[str, ...] = ("provinsi", "kabupaten", "kota")

_UUID_RE = re.compile(
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
)
# ISO-8601 extended date-time with a mandatory zone; seconds and fraction optional.
_TIMESTAMP_RE = re.compile(
    r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$"
)


def is_uuid(value: object) -> bool:
    """A canonical hyphenated UUID string (any case). Braces, URNs and padding are not."""
    return isinstance(value, str) and _UUID_RE.fullmatch(value) is not None


def parse_timestamp(value: object) -> datetime | None:
    """Return the aware datetime for an ISO-8601 timestamp with a zone, else ``None``."""
    if not isinstance(value, str) or _TIMESTAMP_RE.fullmatch(value) is None:
        return None
    text = value.replace(",", ".")
    # fromisoformat in 3.11 wants at most 6 fraction digits.
    text = re.sub(r"(\.\d{6})\d+", r"\1", text)
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def tolerant_string(value: object) -> str | None:
    """The tolerant-read rule: non-string, empty, null or "-" after trim → unavailable."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    return None if text in ("", "-") else text


def collapse_whitespace(value: str) -> str:
    return " ".join(value.split())


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    required: bool
    type: str  # as the contract's table writes it
    rule: str  # Indonesian, for the docs page
    schema: dict[str, Any] = field(default_factory=dict)


_UUID_SCHEMA: dict[str, Any] = {
    "type": "string",
    "format": "uuid",
    "pattern": _UUID_RE.pattern,
}
_OPT_STRING: dict[str, Any] = {"type": ["string", "null"], "pattern": r"\S"}
_TOLERANT_STRING: dict[str, Any] = {"type": ["string", "null"]}

FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "jobId",
        True,
        "UUID string",
        "Identitas IngestionJob mitra untuk idempotensi redelivery, key status-event Kafka, "
        "dan korelasi. Tanpa jobId yang valid tidak ada status event yang dapat dikorelasikan.",
        _UUID_SCHEMA,
    ),
    FieldSpec(
        "documentId",
        True,
        "UUID string",
        "Identitas dokumen/versi mitra. Identitas lock dan source_key default jika sourceKey "
        "tidak tersedia.",
        _UUID_SCHEMA,
    ),
    FieldSpec(
        "registryId",
        False,
        "UUID string | null",
        "Identitas registry mitra. Jika tidak dikirim atau null pada event yang valid, memakai "
        "documentId. UUID non-null yang tidak valid ditolak; pada event malformed, null atau "
        "nilai tidak valid yang dikirim eksplisit tidak diganti.",
        {"type": ["string", "null"], "format": "uuid", "pattern": _UUID_RE.pattern},
    ),
    FieldSpec(
        "storageKey",
        True,
        "string",
        "Harus tidak kosong dan diakhiri nama objek (bukan '/'). Key object storage yang "
        "dibaca tanpa modifikasi.",
        {"type": "string", "pattern": r"\S", "not": {"pattern": "/$"}},
    ),
    FieldSpec(
        DEFAULT_FILENAME_FIELD,
        False,
        "string | null",
        "Nama file asli sebagai judul setelah trim dan peringkasan whitespace. Jika tidak "
        "dikirim, kosong, atau bukan string, judul memakai nama file dari storage key; refresh "
        "byte identik mempertahankan judul tersimpan. Tidak mengubah storage key atau nama "
        "file untuk parser. Nama field masih sementara (PARTNER_FILENAME_FIELD).",
        _TOLERANT_STRING,
    ),
    FieldSpec(
        "mimeType",
        True,
        "string",
        "MIME type yang didukung (tanpa membedakan huruf besar/kecil; parameter seperti "
        "'; charset=utf-8' diabaikan). Harus sesuai dengan ekstensi storageKey.",
        {"type": "string", "pattern": r"\S"},
    ),
    FieldSpec(
        "collectionId",
        True,
        "UUID string",
        "Identitas collection mitra. Disimpan sebagai metadata sumber.",
        _UUID_SCHEMA,
    ),
    FieldSpec(
        "collectionName",
        True,
        "string",
        "Dinormalisasi (tanpa membedakan huruf besar/kecil dan spasi) menjadi JDIH, OpenData, "
        "PPID, SatuData, atau upload; nama wilayah yang diawali Provinsi, Kabupaten, atau "
        "Kota menjadi JDIH. Nama yang tidak dikenal ditolak.",
        {"type": "string", "pattern": r"\S"},
    ),
    FieldSpec(
        "uploadedBy",
        True,
        "UUID string",
        "Identitas aktor atau layanan mitra. Disimpan sebagai metadata sumber.",
        _UUID_SCHEMA,
    ),
    FieldSpec(
        "uploadedAt",
        True,
        "ISO-8601 timestamp",
        "Waktu upload dengan timezone (Z atau offset); tanggal saja atau tanpa zona ditolak. "
        "source_version default jika sourceVersion tidak tersedia.",
        {"type": "string", "format": "date-time", "pattern": _TIMESTAMP_RE.pattern},
    ),
    FieldSpec(
        "sourceType",
        False,
        "string enum | null",
        "Jika non-null, harus sama dengan source type hasil normalisasi collectionName; "
        "'JDIH' diterima untuk collection wilayah. Konflik ditolak.",
        {"type": ["string", "null"], "enum": [*(t.value for t in SourceType), None]},
    ),
    FieldSpec(
        "format",
        False,
        "string | null",
        "Hanya kompatibilitas legacy. Jika non-null, harus sesuai dengan mimeType dan "
        "ekstensi storageKey; untuk key tanpa ekstensi menentukan ekstensi nama file parser.",
        {"type": ["string", "null"], "enum": [*(spec.format.value for spec in FORMATS), None]},
    ),
    FieldSpec(
        "sourceSystem",
        False,
        "string | null",
        "Label sistem sumber yang tidak kosong, misalnya jdih-portal. Disimpan sebagai "
        "metadata sumber.",
        _OPT_STRING,
    ),
    FieldSpec(
        "skpaUnit",
        False,
        "string | null",
        "Unit SKPA atau organisasi yang tidak kosong. Disimpan sebagai metadata sumber.",
        _OPT_STRING,
    ),
    FieldSpec(
        "classification",
        False,
        "string | null",
        "Label klasifikasi yang tidak kosong. Disimpan sebagai metadata sumber.",
        _OPT_STRING,
    ),
    FieldSpec(
        "category",
        False,
        "string | null",
        "Label kategori mitra yang tidak kosong. Disimpan sebagai metadata sumber.",
        _OPT_STRING,
    ),
    FieldSpec(
        "sourceKey",
        False,
        "string | null",
        "Identitas sumber tetap untuk sinkronisasi terjadwal. Menggantikan documentId untuk "
        "source_key dan identitas lock. Dibaca toleran: bukan string, kosong, null, atau '-' "
        "setelah trim dianggap tidak tersedia.",
        _TOLERANT_STRING,
    ),
    FieldSpec(
        "sourceVersion",
        False,
        "string | null",
        "Menggantikan uploadedAt sebagai source_version. Dibaca toleran seperti sourceKey.",
        _TOLERANT_STRING,
    ),
    FieldSpec(
        "sourceMetadata",
        False,
        "object | null",
        "Provenance bernilai string yang digabung ke metadata.source. Hanya key deskriptif "
        "yang diizinkan disimpan; key lain dibuang dengan satu peringatan berisi nama key. "
        "Nilai bukan string, kosong, atau '-' diabaikan; bukan objek diabaikan.",
        {
            "type": ["object", "null"],
            "properties": {key: {"type": "string"} for key in SOURCE_METADATA_KEYS},
        },
    ),
)


def fields_for(filename_field: str) -> tuple[FieldSpec, ...]:
    """``FIELDS`` with the provisional file-name field under its configured name."""
    return tuple(
        replace(spec, name=filename_field) if spec.name == DEFAULT_FILENAME_FIELD else spec
        for spec in FIELDS
    )
