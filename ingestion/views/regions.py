"""Chunk regions for the templates: page frames and boxes as preformatted SVG numbers."""

from __future__ import annotations

from typing import Any


def _num(value: float) -> str:
    return f"{value:.1f}"


def _rect(box: list[float]) -> dict[str, str]:
    x0, y0, x1, y1 = box
    return {
        "x": _num(x0),
        "y": _num(y0),
        "w": _num(max(x1 - x0, 0.5)),
        "h": _num(max(y1 - y0, 0.5)),
    }


def drawable(region: dict[str, Any], threshold: float | None = None) -> dict[str, Any] | None:
    """One page of ``Chunk.regions`` ready for ``page_overlay.html``; None when malformed."""
    try:
        lines = []
        for line in region.get("lines") or ():
            confidence = float(line["c"])
            lines.append(
                {
                    **_rect(line["box"]),
                    "o": int(line.get("o", 0)),
                    "n": int(line.get("n", 0)),
                    "c": confidence,
                    "low": threshold is not None and confidence < threshold,
                }
            )
        return {
            "page": int(region["page"]),
            "w": _num(float(region["w"])),
            "h": _num(float(region["h"])),
            "boxes": [_rect(box) for box in region.get("boxes") or ()],
            "lines": lines,
            "low_count": sum(1 for line in lines if line["low"]),
        }
    except (KeyError, TypeError, ValueError):
        return None


def page_regions(
    regions: Any, *, threshold: float | None = None, page: int | None = None
) -> list[dict[str, Any]]:
    """The drawable pages of a chunk's regions (only ``page`` if given)."""
    if not isinstance(regions, list):
        return []
    out = []
    for region in regions:
        if not isinstance(region, dict) or (page is not None and region.get("page") != page):
            continue
        item = drawable(region, threshold)
        if item is not None:
            out.append(item)
    return out
