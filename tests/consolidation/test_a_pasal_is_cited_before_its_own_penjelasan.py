"""The body of a Pasal is the rule, its Penjelasan the official reading of it, often in the
body's own words: a query made of those words finds both, and the body comes first, the
Penjelasan right after it. UU 17/2006 restates Pasal 75 of UU 10/1995 (Kepabeanan) and
explains its ayat (1) with the same words about patrol boats."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.consolidation.helpers import KEPABEANAN, ingest, search_fresh

pytestmark = pytest.mark.django_db

# Words of the restated Pasal 75 (OCR's "menggunakaan" kept, as the query would be pasted).
# They run from its ayat (1) into ayat (2), so the unit holding them is the Pasal itself.
BODY_WORDING = (
    "sungai menggunakaan kapal patroli atau sarana lainnya. (2) Kapal patroli atau sarana"
)


def test_the_restated_body_comes_before_its_penjelasan(store_dir: Path) -> None:
    _original, amending = (str(ingest(store_dir, name)) for name in KEPABEANAN)
    hits = search_fresh(BODY_WORDING)
    cited = [h.citation for h in hits]
    assert hits[0].document_id == amending, cited
    assert hits[0].citation == "UU 10/1995 Pasal 75", cited
    assert hits[0].consolidated is True
    explained = [
        i for i, h in enumerate(hits) if h.citation == "UU 10/1995 Penjelasan Pasal 75 ayat (1)"
    ]
    assert explained and explained[0] == 1, cited
