"""Read an amending regulation's numbered instructions (Pasal I, or the omnibus form)."""

from __future__ import annotations

from ingestion.legal.amendments.model import AmendmentText
from ingestion.legal.citation import RegulationRef


def read_amendments(text: str, own: RegulationRef) -> list[AmendmentText]:
    """One :class:`AmendmentText` per regulation ``text`` amends; never raises."""
    return []
