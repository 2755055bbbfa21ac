"""The doc.uploaded contract: one raw Kafka record value in, one :class:`Verdict` out.

Pure code: no models, no I/O, no clock. The public API is re-exported here::

    config = ContractConfig.from_settings()          # or ContractConfig() in pure code
    verdict = validate_doc_uploaded(raw_bytes, config)
    verdict.outcome          # Outcome.ACCEPT | REJECT | SKIP
    verdict.normalized       # NormalizedRecord (accept and skip)
    verdict.status_event()   # failed/failed or indexed/skipped envelope, else None
    verdict.to_json(config)  # the check_doc_uploaded object

Every field error is collected (in field-table order) and joined into ``Verdict.error``, so
a partner fixes an event in one round trip. Correlation for malformed events follows the
contract's recovery rules (:func:`recover_identity`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ingestion.formats import (
    FORMATS,
    DocumentFormat,
    FormatError,
    key_basename,
    resolve_format,
)
from ingestion.sources import SourceType
from partner_events.contract.config import ContractConfig
from partner_events.contract.fields import (
    FIELDS,
    SOURCE_METADATA_KEYS,
    FieldSpec,
    collapse_whitespace,
    fields_for,
    is_uuid,
    parse_timestamp,
    tolerant_string,
)
from partner_events.contract.record import NormalizedRecord, Outcome, Verdict, WarningCode

__all__ = [
    "FIELDS",
    "FORMATS",
    "MAX_STORAGE_KEY_BYTES",
    "SOURCE_METADATA_KEYS",
    "ContractConfig",
    "DocumentFormat",
    "FieldSpec",
    "NormalizedRecord",
    "Outcome",
    "SourceType",
    "Verdict",
    "WarningCode",
    "decode_payload",
    "fields_for",
    "is_text",
    "recover_identity",
    "validate_doc_uploaded",
]

_OPTIONAL_LABELS = ("sourceSystem", "skpaUnit", "classification", "category")
_SHOWN_MAX = 80
# S3/OBS object keys are at most 1024 bytes of UTF-8 (and so is documents.storage_key).
MAX_STORAGE_KEY_BYTES = 1024


def is_text(value: object) -> bool:
    """A string that can be stored: UTF-8 encodable (no lone surrogates) and without NUL."""
    if not isinstance(value, str) or "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown(value: str) -> str:
    """A partner value echoed in an error: printable and short."""
    safe = value.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")
    return safe if len(safe) <= _SHOWN_MAX else safe[: _SHOWN_MAX - 1] + "…"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} bukan nilai JSON yang sah")


def decode_payload(raw: bytes | bytearray | memoryview | str) -> tuple[object, str | None]:
    """Parse a record value; ``(payload, None)`` or ``(None, error)``. Never raises."""
    try:
        text = bytes(raw).decode("utf-8-sig") if not isinstance(raw, str) else raw
        return json.loads(text.removeprefix("\ufeff"), parse_constant=_reject_constant), None
    except UnicodeDecodeError:
        return None, "payload bukan teks UTF-8 yang valid"
    except (ValueError, RecursionError) as exc:
        return None, f"payload bukan JSON yang valid: {_shown(str(exc))}"


def recover_identity(payload: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The (jobId, registryId) a malformed event can still be correlated with.

    registryId falls back to a valid documentId only when it was not sent at all; an
    explicit null or invalid registryId is not replaced.
    """
    job_id = payload.get("jobId")
    if not is_uuid(job_id):
        return None, None
    if "registryId" in payload:
        registry = payload["registryId"]
        return job_id, registry if is_uuid(registry) else None
    document_id = payload.get("documentId")
    return job_id, document_id if is_uuid(document_id) else None


class _Reader:
    """Reads fields off one payload object, collecting Indonesian errors in order."""

    def __init__(self, payload: Mapping[str, Any]) -> None:
        self.payload = payload
        self.errors: list[str] = []

    def fail(self, message: str) -> None:
        self.errors.append(message)

    def uuid(self, name: str) -> str | None:
        value = self.payload.get(name)
        if value is None:
            self.fail(f"{name} wajib diisi (UUID)")
            return None
        if not is_uuid(value):
            self.fail(f"{name} harus UUID yang valid")
            return None
        return str(value)

    def text(self, name: str) -> str | None:
        value = self.payload.get(name)
        if value is None:
            self.fail(f"{name} wajib diisi")
            return None
        if not is_text(value) or not str(value).strip():
            self.fail(f"{name} harus string yang tidak kosong")
            return None
        return str(value)

    def optional_text(self, name: str) -> str | None:
        value = self.payload.get(name)
        if value is None:
            return None
        if not is_text(value) or not str(value).strip():
            self.fail(f"{name} harus null atau string yang tidak kosong")
            return None
        return str(value)


def _registry_id(reader: _Reader, document_id: str | None) -> str | None:
    value = reader.payload.get("registryId")
    if value is None:
        return document_id
    if not is_uuid(value):
        reader.fail("registryId harus UUID yang valid atau null")
        return None
    return str(value)


def _storage_key(reader: _Reader) -> str | None:
    key = reader.text("storageKey")
    if key is None:
        return None
    if not key_basename(key).strip():
        reader.fail("storageKey harus diakhiri nama objek, bukan '/'")
        return None
    if len(key.encode("utf-8")) > MAX_STORAGE_KEY_BYTES:
        reader.fail(f"storageKey melebihi {MAX_STORAGE_KEY_BYTES} byte UTF-8")
        return None
    return key


def _uploaded_at(reader: _Reader) -> tuple[str, datetime] | None:
    value = reader.payload.get("uploadedAt")
    if value is None:
        reader.fail("uploadedAt wajib diisi (timestamp ISO-8601 dengan timezone)")
        return None
    parsed = parse_timestamp(value)
    if parsed is None:
        reader.fail(
            "uploadedAt harus timestamp ISO-8601 dengan timezone, "
            "mis. 2026-08-05T09:12:03Z atau 2026-08-05T16:12:03+07:00"
        )
        return None
    return str(value), parsed


def _enum_value(reader: _Reader, name: str, allowed: list[str]) -> str | None:
    value = reader.optional_text(name)
    if value is not None and value not in allowed:
        reader.fail(
            f"{name} '{_shown(value)}' tidak dikenal; gunakan salah satu dari: {', '.join(allowed)}"
        )
        return None
    return value


def _source_type(reader: _Reader, config: ContractConfig) -> SourceType | None:
    explicit = _enum_value(reader, "sourceType", [t.value for t in SourceType])
    name = reader.text("collectionName")
    if name is None:
        return None
    normalized = config.source_type_for_collection(name)
    if normalized is None:
        reader.fail(
            f"collectionName '{_shown(name)}' tidak dikenal; gunakan JDIH, OpenData, PPID, "
            "SatuData, upload, atau nama wilayah (Provinsi/Kabupaten/Kota …)"
        )
        return None
    if explicit is not None and explicit != normalized:
        reader.fail(
            f"sourceType '{explicit}' bertentangan dengan collectionName '{_shown(name)}' "
            f"(dinormalisasi menjadi {normalized.value})"
        )
        return None
    return normalized


def _title(payload: Mapping[str, Any], field_name: str, storage_key: str) -> tuple[str, bool]:
    value = payload.get(field_name)
    if is_text(value):
        title = collapse_whitespace(str(value))
        if title:
            return title, True
    return collapse_whitespace(key_basename(storage_key)), False


def _source_metadata(payload: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Kept descriptive keys (tolerant values) and the names of dropped keys."""
    value = payload.get("sourceMetadata")
    if not isinstance(value, Mapping):
        return {}, []
    kept: dict[str, str] = {}
    dropped: list[str] = []
    for key, item in value.items():
        if key not in SOURCE_METADATA_KEYS:
            dropped.append(key)
            continue
        text = tolerant_string(item) if is_text(item) else None
        if text is not None:
            kept[key] = text
    return kept, dropped


def _tolerant(payload: Mapping[str, Any], name: str) -> str | None:
    value = payload.get(name)
    return tolerant_string(value) if is_text(value) else None


def _warnings(dropped: list[str]) -> list[dict[str, Any]]:
    if not dropped:
        return []
    safe = [_shown(key) for key in dropped]
    return [{"code": WarningCode.SOURCE_METADATA_KEYS_DROPPED.value, "keys": safe}]


def _normalize(reader: _Reader, config: ContractConfig) -> NormalizedRecord | None:
    """Apply every field rule; ``None`` when any failed (errors are on ``reader``)."""
    p = reader.payload
    job_id = reader.uuid("jobId")
    document_id = reader.uuid("documentId")
    registry_id = _registry_id(reader, document_id)
    storage_key = _storage_key(reader)
    mime_type = reader.text("mimeType")
    collection_id = reader.uuid("collectionId")
    source_type = _source_type(reader, config)
    uploaded_by = reader.uuid("uploadedBy")
    uploaded = _uploaded_at(reader)
    errors_before_format = len(reader.errors)
    legacy_format = _enum_value(reader, "format", [spec.format.value for spec in FORMATS])
    format_ok = len(reader.errors) == errors_before_format
    labels = {name: reader.optional_text(name) for name in _OPTIONAL_LABELS}
    resolved = None
    if storage_key is not None and mime_type is not None and format_ok:
        try:
            resolved = resolve_format(storage_key, mime_type, legacy_format)
        except FormatError as exc:
            reader.fail(str(exc))
    if reader.errors:
        return None
    assert job_id and document_id and registry_id and storage_key and mime_type
    assert collection_id and source_type and uploaded_by and uploaded and resolved
    title, from_partner = _title(p, config.filename_field, storage_key)
    source_key = _tolerant(p, "sourceKey")
    source_version = _tolerant(p, "sourceVersion")
    kept, _dropped = _source_metadata(p)
    return NormalizedRecord(
        job_id=job_id,
        document_id=document_id,
        registry_id=registry_id,
        storage_key=storage_key,
        title=title,
        title_from_partner=from_partner,
        mime_type=mime_type,
        media_type=resolved.media_type,
        format=resolved.format,
        parser_file_name=resolved.parser_file_name,
        collection_id=collection_id,
        collection_name=str(p["collectionName"]),
        source_type=source_type,
        uploaded_by=uploaded_by,
        uploaded_at=uploaded[0],
        uploaded_at_dt=uploaded[1],
        source_key=source_key or document_id,
        source_key_explicit=source_key is not None,
        source_version=source_version or uploaded[0],
        source_version_explicit=source_version is not None,
        source_system=labels["sourceSystem"],
        skpa_unit=labels["skpaUnit"],
        classification=labels["classification"],
        category=labels["category"],
        source_metadata=kept,
    )


def validate_doc_uploaded(
    raw: bytes | bytearray | memoryview | str, config: ContractConfig
) -> Verdict:
    """Validate one doc.uploaded record value. Never raises for any input."""
    payload, decode_error = decode_payload(raw)
    if decode_error is not None:
        return Verdict(Outcome.REJECT, error=decode_error)
    if not isinstance(payload, dict):
        return Verdict(Outcome.REJECT, error="payload harus berupa objek JSON")
    reader = _Reader(payload)
    record = _normalize(reader, config)
    warnings = _warnings(_source_metadata(payload)[1])
    if record is None:
        job_id, registry_id = recover_identity(payload)
        error = "; ".join(reader.errors)
        return Verdict(Outcome.REJECT, error, None, warnings, job_id, registry_id)
    outcome = (
        Outcome.SKIP if config.is_structured(record.source_type, record.format) else Outcome.ACCEPT
    )
    return Verdict(outcome, None, record, warnings, record.job_id, record.registry_id)
