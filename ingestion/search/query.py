"""The search service's plain data: the query, one hit (a citation) and the response.

``SearchResponse.to_json()`` produces the stable ``GET /api/search`` shape of DESIGN.md;
citation extras (nomor, tahun, jenis, edition date) ride inside each result as extra keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any


class Editions(StrEnum):
    LATEST = "latest"
    ALL = "all"


class Degraded(StrEnum):
    LEXICAL_ONLY = "lexical_only"
    NO_RERANK = "no_rerank"


class SearchMode(StrEnum):
    """Which ranked lists take part. Only the benchmark and diagnostics use anything but HYBRID."""

    HYBRID = "hybrid"
    LEXICAL = "lexical"
    DENSE = "dense"


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """One search request. Empty filters mean "no filter"; comparisons ignore case."""

    text: str
    limit: int = 10
    source_type: str | None = None
    tahun: str | None = None
    wilayah: str | None = None
    jenis: str | None = None
    status_berlaku: str | None = None
    classification: str | None = None
    editions: Editions = Editions.LATEST
    mode: SearchMode = SearchMode.HYBRID
    # Repealed regulations (``in_force`` false) are left out unless asked for; then they
    # rank after every other result. Only the benchmark turns ``in_force_first`` off: GALQA
    # asks about PP 4/2015, which PP 59/2021 (also in that corpus) repeals, and measures
    # relevance alone.
    include_repealed: bool = False
    in_force_first: bool = True
    # The wording in force on this date (None: today); ``include_history`` also returns
    # the superseded wordings, marked not in force (ingestion.search.consolidated).
    as_of: date | None = None
    include_history: bool = False
    # Only these documents (a regulation the question names: ingestion.search.named).
    documents: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One chunk with what a reader needs to cite it."""

    chunk_id: int
    document_id: str
    title: str
    heading_path: str
    page_from: int
    page_to: int
    text: str
    score: float
    source_url: str
    source_type: str
    source_key: str
    source_version: str
    nomor: str | None = None
    tahun: str | None = None
    jenis: str | None = None
    # The legal unit the hit cites (ingestion.legal): null for non-legal text.
    citation: str | None = None
    unit: dict[str, str | None] | None = None
    unit_text: str | None = None
    unit_span: tuple[int, int] | None = None
    unit_label: str | None = None
    unit_page: int | None = None
    in_force: bool | None = None
    amended_by: list[str] = field(default_factory=list)
    repealed_by: list[str] = field(default_factory=list)
    references: list[dict[str, Any]] = field(default_factory=list)
    # The wording in force (ingestion.search.consolidated): an amending law's restated
    # Pasal is cited as the unit of the regulation it amends.
    citation_full: str | None = None
    consolidated: bool = False
    changed_by: list[dict[str, Any]] = field(default_factory=list)
    valid_from: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "documentId": self.document_id,
            "title": self.title,
            "headingPath": self.heading_path,
            "pageFrom": self.page_from,
            "pageTo": self.page_to,
            "text": self.text,
            "score": self.score,
            "sourceUrl": self.source_url,
            "sourceType": self.source_type,
            "sourceKey": self.source_key,
            "sourceVersion": self.source_version,
            "chunkId": self.chunk_id,
            "nomor": self.nomor,
            "tahun": self.tahun,
            "jenis": self.jenis,
            "citation": self.citation,
            "unit": self.unit,
            "unitText": self.unit_text,
            "unitSpan": list(self.unit_span) if self.unit_span else None,
            "inForce": self.in_force,
            "amendedBy": list(self.amended_by),
            "repealedBy": list(self.repealed_by),
            "references": list(self.references),
            "citationFull": self.citation_full or self.citation,
            "consolidated": self.consolidated,
            "changedBy": list(self.changed_by),
            "validFrom": self.valid_from,
        }


@dataclass(slots=True)
class SearchResponse:
    results: list[SearchHit] = field(default_factory=list)
    degraded: Degraded | None = None
    took_ms: float = 0.0
    # The regulation the question names that no visible document is ("UU 27/2022"): the
    # rest of the corpus was searched instead.
    named_regulation_missing: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "results": [hit.to_json() for hit in self.results],
            "degraded": self.degraded.value if self.degraded else None,
            "tookMs": round(self.took_ms, 2),
            "namedRegulationMissing": self.named_regulation_missing,
        }
