"""A chunk stores the boxes of its blocks per page, in the page's own frame."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from ingestion.models import Chunk
from ingestion.pipeline.parse import parse
from ingestion.pipeline.runner import Outcome, ingest
from tests.pipeline_core.helpers import RecordingObserver, doc_id, make_request, put_object

pytestmark = pytest.mark.django_db


def _two_page_pdf() -> bytes:
    doc = pymupdf.open()
    for number, (top, text) in enumerate([(100, "Pasal 1"), (400, "Pasal 2")], start=1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, top), text, fontsize=14)
        body = f"Ketentuan halaman {number} tentang arsip daerah Aceh yang dikelola dengan tertib."
        page.insert_text((72, top + 30), body, fontsize=11)
    data = bytes(doc.tobytes())
    doc.close()
    return data


def test_text_layer_blocks_keep_their_box_in_pdf_points(tmp_path: Path) -> None:
    path = tmp_path / "dua.pdf"
    path.write_bytes(_two_page_pdf())
    parsed = parse(path, "pdf")
    second = [b for b in parsed.blocks if b.page == 2]
    assert second and all(b.bbox is not None and b.frame is not None for b in second)
    frame = second[0].frame
    assert frame is not None and (frame.width, frame.height, frame.unit, frame.dpi) == (
        595,
        842,
        "pt",
        72,
    )
    top = min(b.bbox[1] for b in second if b.bbox is not None)
    assert 380 < top < 400  # "Pasal 2" was written with its baseline at y = 400 pt


def test_an_ingested_chunk_outlines_its_blocks_on_each_page(
    store_dir: Path,
) -> None:
    key = put_object(store_dir, "jdih/dua-halaman.pdf", _two_page_pdf())
    result = ingest(make_request(key, "pdf"), RecordingObserver())
    assert result.outcome is Outcome.INDEXED, result.error

    chunks = list(Chunk.objects.filter(document_id=doc_id(result)).order_by("ordinal"))
    regions = {r["page"]: r for chunk in chunks for r in chunk.regions or []}
    assert set(regions) == {1, 2}
    for page, region in regions.items():
        assert (region["w"], region["h"], region["unit"], region["dpi"]) == (595, 842, "pt", 72)
        tops = [box[1] for box in region["boxes"]]
        assert min(tops) < (110 if page == 1 else 410)
        for x0, y0, x1, y1 in region["boxes"]:
            assert 60 < x0 < x1 < 595 and 0 < y0 < y1 < 842
