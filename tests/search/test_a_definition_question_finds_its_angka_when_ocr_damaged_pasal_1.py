"""A definition question finds the defining angka of the Ketentuan Umum, also when a scan
printed its "Pasal 1" so that no Pasal is read there (no legal units to look in): the
numbered items of the leading candidates' text are read for the definition instead."""

from __future__ import annotations

import pytest

from ingestion.models import Document
from ingestion.search.service import SearchQuery, search
from tests.relations.helpers import Regulation, StoreRegulation
from tests.search.helpers import HashEmbedder

pytestmark = pytest.mark.django_db

KETENTUAN_UMUM = (
    "Dalam Undang-Undang ini yang dimaksud dengan:\n"
    "1. Data Pribadi adalah data tentang orang perseorangan yang teridentifikasi.\n"
    "2. Pengendali Data Pribadi adalah setiap orang yang menentukan tujuan pemrosesan.\n"
    "3. Subjek Data Pribadi adalah orang perseorangan yang pada dirinya melekat data."
)
LATER = (
    "Pengendali Data Pribadi wajib melindungi Data Pribadi dan memastikan keamanan Data "
    "Pribadi yang diprosesnya; Data Pribadi yang bocor dilaporkan oleh Pengendali Data Pribadi."
)


@pytest.fixture
def damaged(regulation: StoreRegulation) -> Document:
    text = Regulation(
        heading="UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 27 TAHUN 2022",
        tentang="PELINDUNGAN DATA PRIBADI",
        menetapkan="UNDANG-UNDANG TENTANG PELINDUNGAN DATA PRIBADI.",
        pasals=[KETENTUAN_UMUM, LATER],
    ).text()
    assert "\nPasal 1\n" in text
    text = text.replace("\nPasal 1\n", "\nPasaI l\n")  # as a scan prints it
    return regulation(text, title="UU 27/2022", source_key="uu-27-2022")


def test_the_defining_text_answers_first(damaged: Document) -> None:
    hits = search(
        SearchQuery(text="Apa yang dimaksud dengan Pengendali Data Pribadi?", limit=5),
        embedder=HashEmbedder(),
    ).results
    assert hits[0].document_id == str(damaged.pk)
    assert "Pengendali Data Pribadi adalah" in hits[0].text
