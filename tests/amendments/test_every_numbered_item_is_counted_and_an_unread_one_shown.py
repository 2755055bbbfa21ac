"""An amending law's Pasal I counts every numbered item it prints: an item whose sentence
OCR broke, or that a lost page took, stays in the count as unparsed with its reason, so a
reader never sees "8 of 8 applied" when the law has 9. Nothing is invented for it."""

from __future__ import annotations

from ingestion.legal.amendments.read import read_amendments
from ingestion.legal.citation import RegulationRef

OWN = RegulationRef("Undang-Undang", "19", "2016")
HEAD = """UNDANG-UNDANG NOMOR 19 TAHUN 2016 TENTANG PERUBAHAN ATAS UNDANG-UNDANG NOMOR 11 TAHUN 2008
MEMUTUSKAN:
Pasal I
Beberapa ketentuan dalam Undang-Undang Nomor 11 Tahun 2008 tentang Informasi dan Transaksi
Elektronik diubah sebagai berikut:
1. Ketentuan Pasal 1 diubah sehingga berbunyi sebagai berikut:
Pasal 1
Informasi Elektronik adalah data elektronik.
2. Ketentuan Pasal 5 dihapus.
"""
TAIL = """Pasal II
Undang-Undang ini mulai berlaku pada tanggal diundangkan.
"""


def _instructions(middle: str) -> list:
    (amendment,) = read_amendments(HEAD + middle + TAIL, OWN)
    return list(amendment.instructions)


def test_an_item_whose_verb_ocr_broke_is_counted_and_unparsed() -> None:
    items = _instructions(
        "3. Di antara Pasal 45 dan Pasal 46 d1s1s1pkan 2 (dua) pasal yakni Pasal 45A dan "
        "Pasal 45B sehingga berbunyi sebagai berikut:\nPasal 45A\nSetiap Orang dilarang.\n"
    )
    assert [i.ordinal for i in items] == [1, 2, 3]
    assert items[2].operation is None and items[2].reason
    assert not items[2].new_pasal  # nothing is invented for it


def test_items_a_lost_page_took_are_reported_with_a_reason() -> None:
    items = _instructions(
        "5. Ketentuan Pasal 27 diubah sehingga berbunyi sebagai berikut:\nPasal 27\n"
        "Setiap Orang dengan sengaja mendistribusikan.\n"
    )
    assert [i.ordinal for i in items] == [1, 2, 3, 4, 5]
    assert [i.operation is None for i in items[2:4]] == [True, True]
    assert all("tidak ditemukan" in i.reason for i in items[2:4])
    assert items[4].new_pasal[0].number == "27"
