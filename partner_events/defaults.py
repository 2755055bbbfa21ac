"""The partner contract's default values, in one place.

Pure constants with no imports: ``aceh_rag/settings.py`` uses them as the defaults of the
environment variables, and the contract code uses them when run without Django settings.
"""

# The contract's "Map stage-topic default": internal routing key → topic.
DEFAULT_STAGE_TOPICS: dict[str, str] = {
    "fetched": "doc.extracted",
    "parsed": "doc.extracted",
    "ocr_pending": "doc.ocr.pending",
    "ocr": "doc.ocr.done",
    "chunked": "doc.chunked",
    "embedded": "doc.embedded",
    "indexed": "doc.indexed",
    "failed": "doc.indexed",
    "skipped": "doc.indexed",
}

# collectionName aliases (lower-case, spaces removed → source type). The partner has not
# approved the authoritative map yet, so deployments may override it (COLLECTION_ALIASES).
DEFAULT_COLLECTION_ALIASES: dict[str, str] = {
    "jdih": "JDIH",
    "opendata": "OpenData",
    "open-data": "OpenData",
    "ppid": "PPID",
    "satudata": "SatuData",
    "satu-data": "SatuData",
    "upload": "upload",
}

# Tabular datasets from these sources belong to the structured-data catalogue: skipped.
DEFAULT_STRUCTURED_SOURCE_TYPES: tuple[str, ...] = ("SatuData", "OpenData")
DEFAULT_STRUCTURED_FORMATS: tuple[str, ...] = ("csv", "xlsx")
