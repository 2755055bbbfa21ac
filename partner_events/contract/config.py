"""Configuration of the doc.uploaded contract and the collectionName normalization."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from ingestion.formats import DocumentFormat
from ingestion.sources import SourceType
from partner_events.contract.fields import DEFAULT_FILENAME_FIELD, REGIONAL_PREFIXES
from partner_events.defaults import (
    DEFAULT_COLLECTION_ALIASES,
    DEFAULT_STAGE_TOPICS,
    DEFAULT_STRUCTURED_FORMATS,
    DEFAULT_STRUCTURED_SOURCE_TYPES,
)
from partner_events.status import validate_stage_topics

_REGIONAL_RE = re.compile(rf"^(?:{'|'.join(REGIONAL_PREFIXES)})\s+\S", re.IGNORECASE)


def collection_key(name: str) -> str:
    """Alias lookup key: case and whitespace do not matter ("Open Data" → "opendata")."""
    return "".join(name.split()).lower()


def _source_types(values: Iterable[Any], setting: str) -> frozenset[SourceType]:
    result: set[SourceType] = set()
    for value in values:
        try:
            result.add(SourceType(value))
        except ValueError:
            raise ImproperlyConfigured(
                f"{setting}: '{value}' bukan source type yang dikenal "
                f"({', '.join(t.value for t in SourceType)})"
            ) from None
    return frozenset(result)


def _formats(values: Iterable[Any], setting: str) -> frozenset[DocumentFormat]:
    result: set[DocumentFormat] = set()
    for value in values:
        try:
            result.add(DocumentFormat(value))
        except ValueError:
            raise ImproperlyConfigured(f"{setting}: '{value}' bukan format yang dikenal") from None
    return frozenset(result)


def _aliases(mapping: object) -> dict[str, SourceType]:
    if not isinstance(mapping, Mapping):
        raise ImproperlyConfigured("COLLECTION_ALIASES harus berupa objek alias → source type")
    _source_types(mapping.values(), "COLLECTION_ALIASES")  # raises on an unknown target
    return {collection_key(str(alias)): SourceType(target) for alias, target in mapping.items()}


@dataclass(frozen=True, slots=True)
class ContractConfig:
    """Everything the validator needs from settings, as plain values.

    Build it with :meth:`from_settings` in Django code, or :meth:`default` / the constructor
    in pure code and tests. ``collection_aliases`` keys are normalized with
    :func:`collection_key` on construction.
    """

    filename_field: str = DEFAULT_FILENAME_FIELD
    collection_aliases: Mapping[str, str] = field(
        default_factory=lambda: dict(DEFAULT_COLLECTION_ALIASES)
    )
    structured_source_types: frozenset[str] = frozenset(DEFAULT_STRUCTURED_SOURCE_TYPES)
    structured_formats: frozenset[str] = frozenset(DEFAULT_STRUCTURED_FORMATS)
    stage_topics: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_STAGE_TOPICS))

    def __post_init__(self) -> None:
        if not self.filename_field or not isinstance(self.filename_field, str):
            raise ImproperlyConfigured("PARTNER_FILENAME_FIELD harus string yang tidak kosong")
        # Frozen: normalize through object.__setattr__ so lookups need no re-validation.
        object.__setattr__(self, "collection_aliases", _aliases(self.collection_aliases))
        object.__setattr__(
            self,
            "structured_source_types",
            _source_types(self.structured_source_types, "STRUCTURED_SOURCE_TYPES"),
        )
        object.__setattr__(
            self, "structured_formats", _formats(self.structured_formats, "STRUCTURED_FORMATS")
        )
        object.__setattr__(self, "stage_topics", validate_stage_topics(self.stage_topics))

    @classmethod
    def default(cls) -> ContractConfig:
        return cls()

    @classmethod
    def from_settings(cls) -> ContractConfig:
        """Read the contract settings; raises ``ImproperlyConfigured`` on invalid values."""
        return cls(
            filename_field=settings.PARTNER_FILENAME_FIELD,
            collection_aliases=settings.COLLECTION_ALIASES,
            structured_source_types=frozenset(settings.STRUCTURED_SOURCE_TYPES),
            structured_formats=frozenset(settings.STRUCTURED_FORMATS),
            stage_topics=settings.KAFKA_STAGE_TOPICS,
        )

    def source_type_for_collection(self, collection_name: str) -> SourceType | None:
        """Normalize a collectionName; ``None`` when it is not recognized."""
        alias = self.collection_aliases.get(collection_key(collection_name))
        if alias is not None:
            return SourceType(alias)
        if _REGIONAL_RE.match(collection_name.strip()):
            return SourceType.JDIH
        return None

    def is_structured(self, source_type: str, fmt: str) -> bool:
        return source_type in self.structured_source_types and fmt in self.structured_formats
