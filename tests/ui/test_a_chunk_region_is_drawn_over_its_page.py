"""The document page draws a chunk's stored boxes over the page image, in the page frame."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ingestion.models import Chunk
from tests.ui.helpers import make_chunks, make_document

pytestmark = pytest.mark.django_db

REGION = {
    "page": 2,
    "w": 595.0,
    "h": 842.0,
    "unit": "pt",
    "dpi": 72,
    "boxes": [[72.0, 80.5, 300.0, 120.0]],
    "lines": [
        {"box": [72.0, 80.5, 300.0, 95.0], "c": 0.41, "o": 0, "n": 20},
        {"box": [72.0, 100.0, 280.0, 120.0], "c": 0.93, "o": 21, "n": 30},
    ],
}


def test_selecting_a_chunk_draws_its_boxes_in_the_page_frame(reviewer_client: Client) -> None:
    document = make_document(page_count=3)
    chunk = make_chunks(document, 1)[0]
    Chunk.objects.filter(pk=chunk.pk).update(regions=[REGION], page_from=2, page_to=2)

    html = reviewer_client.get(
        f"/documents/{document.pk}/chunks/{chunk.pk}/letak", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert f'src="/documents/{document.pk}/pages/2.png"' in html
    assert 'viewBox="0 0 595.0 842.0"' in html  # never "595,0": the locale must not leak in
    assert re.findall(r'<rect class="region" ([^/]+)/>', html) == [
        'x="72.0" y="80.5" width="228.0" height="39.5"'
    ]

    plain = reviewer_client.get(f"/documents/{document.pk}/chunks/{chunk.pk}/letak")
    assert plain.status_code == 302
    assert plain["Location"] == f"/documents/{document.pk}/?chunk={chunk.pk}#chunk-viewer"
    page = reviewer_client.get(f"/documents/{document.pk}/?chunk={chunk.pk}").content.decode()
    assert page.count('<rect class="region"') == 1
    assert page.count("?ukuran=kecil") == 3  # one lazy thumbnail per page
    assert page.count('loading="lazy"') >= 3


def test_the_review_page_outlines_only_lines_below_the_threshold(
    reviewer_client: Client, settings: object
) -> None:
    document = make_document(status="needs_review", page_count=3)
    chunk = make_chunks(document, 1, parked=True)[0]
    Chunk.objects.filter(pk=chunk.pk).update(regions=[REGION], page_from=2, page_to=2)
    html = reviewer_client.get(f"/review/{document.pk}/").content.decode()
    assert len(re.findall(r'<rect class="line-low" data-o="0" data-n="20"', html)) == 1
    assert len(re.findall(r'<rect class="line-ok" data-o="21" data-n="30"', html)) == 1
    assert "1 baris diragukan ditandai" in html
