"""A PENJELASAN unit points at the body unit it explains (same Pasal, ayat, huruf)."""

from __future__ import annotations

import pytest

from ingestion.models import LegalUnit
from tests.legal.helpers import IndexRegulation

pytestmark = pytest.mark.django_db


def test_uu_13_2003_penjelasan_pasal_59_ayat_2_explains_pasal_59_ayat_2(
    index_regulation: IndexRegulation,
) -> None:
    document = index_regulation(
        "docs/uu_13_2003_ketenagakerjaan.pdf", "pdf", "uu_13_2003_ketenagakerjaan.pdf"
    )
    note = LegalUnit.objects.select_related("explains").get(
        document=document, label="Penjelasan Pasal 59 ayat (2)"
    )
    assert note.penjelasan and note.page == 74
    assert "pekerjaan yang bersifat tetap" in note.text
    assert note.explains is not None
    assert (note.explains.label, note.explains.penjelasan) == ("Pasal 59 ayat (2)", False)
    assert note.explains.page == 19
    assert note.explains.explained_by.get() == note
    # a body unit never explains anything
    assert (
        not LegalUnit.objects.filter(document=document, penjelasan=False)
        .exclude(explains=None)
        .exists()
    )
