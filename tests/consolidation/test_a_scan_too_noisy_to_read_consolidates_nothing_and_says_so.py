"""An amending law whose Pasal I OCR left unreadable applies nothing: the original stays
as it was, the reader says what could not be read, and the amending law is still indexed."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from ingestion.models import Document, DocumentStatus
from tests.api.helpers import bearer, issue_token
from tests.consolidation.helpers import amending_tipikor, ingest

pytestmark = pytest.mark.django_db

NOISE = (
    "1. Kt~ntu@n P#sal 5 d!u b%h s$hngg@ b3rbuny1 s#b@ga1 b3r1kut:\n"
    "Pa~al 5 D1p1d@na d3ngan p1d@na p3nj@ra.\n"
    "2. K~tn P$l 6 d%h@p&s.\n"
)


def test_nothing_is_applied_the_reader_says_so_and_the_law_is_indexed(
    client: Client, store_dir: Path
) -> None:
    original = str(ingest(store_dir, "uu_31_1999_tipikor.md"))
    noisy = ingest(store_dir, "uu_5_2003_perubahan_kedua_tipikor.md", amending_tipikor(NOISE))
    assert Document.objects.get(pk=noisy).status == DocumentStatus.INDEXED
    body = client.get(
        f"/api/documents/{original}/consolidated", headers=bearer(issue_token())
    ).json()
    assert all(p["state"] == "original" for p in body["pasals"])
    amendments = [a for a in body["amendments"] if a["documentId"] == str(noisy)]
    assert amendments and amendments[0]["counts"]["applied"] == 0
    assert body["unparsed"], "the reader names what it could not read"
