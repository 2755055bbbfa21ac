"""A regulation's outline for the document page: BAB → Pasal → ayat, each with its anchor.

Built from the body units (PENJELASAN excluded) in text order; the BAB comes from the
heading path of the Pasal's chunk. A Pasal split over several chunks is listed once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from ingestion.legal.units import UnitKind, unit_anchor
from ingestion.models import LegalUnit

PREVIEW_CHARS = 160


@dataclass(slots=True)
class OutlineItem:
    label: str
    anchor: str
    page: int
    preview: str
    children: list[OutlineItem] = field(default_factory=list)


@dataclass(slots=True)
class OutlineBab:
    title: str
    pasals: list[OutlineItem] = field(default_factory=list)


def _preview(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1].rstrip() + "…"


def _bab(heading_path: str) -> str:
    return next((part for part in heading_path.split(" › ") if part.startswith("BAB ")), "")


def regulation_outline(document_id: UUID) -> list[OutlineBab]:
    """The outline, or [] for a document without legal units."""
    rows = (
        LegalUnit.objects.filter(
            document_id=document_id,
            penjelasan=False,
            kind__in=[UnitKind.PASAL, UnitKind.AYAT],
            depth__lte=1,
        )
        .order_by("chunk__ordinal", "start", "-end")
        .values_list("kind", "pasal", "ayat", "page", "text", "chunk__heading_path")
    )
    babs: list[OutlineBab] = []
    pasals: dict[str, OutlineItem] = {}
    seen_ayat: set[tuple[str, str]] = set()
    for kind, pasal, ayat, page, text, heading in rows:
        if kind == UnitKind.PASAL:
            if pasal in pasals:
                continue
            bab = _bab(heading)
            if not babs or babs[-1].title != bab:
                babs.append(OutlineBab(bab))
            item = OutlineItem(f"Pasal {pasal}", unit_anchor(pasal), page, _preview(text))
            pasals[pasal] = item
            babs[-1].pasals.append(item)
        elif pasal in pasals and (pasal, ayat) not in seen_ayat:
            seen_ayat.add((pasal, ayat))
            pasals[pasal].children.append(
                OutlineItem(f"ayat ({ayat})", unit_anchor(pasal, ayat), page, _preview(text))
            )
    return babs
