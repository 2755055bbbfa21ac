"""A scan prints an inserted Pasal's letter as a digit or a mark ("Pasal 94" for 9A, "5lE}" for
51B, "614'" for 61A). The instruction reader takes the number that the instruction's own
place and the letter's printed form allow, so the insertion lands as the law made it."""

from __future__ import annotations

from ingestion.legal.amendments.model import Operation
from ingestion.legal.amendments.read import instruction_pasal, read_amendments
from ingestion.legal.citation import RegulationRef

HEAD = """UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 2 TAHUN 2022
TENTANG PERUBAHAN KEDUA ATAS UNDANG-UNDANG NOMOR 38 TAHUN 2004 TENTANG JALAN
MEMUTUSKAN:
Pasal I
Beberapa ketentuan dalam Undang-Undang Nomor 38 Tahun 2004 tentang Jalan diubah sebagai berikut:
"""


def _inserted(items: str) -> dict[int, list[str]]:
    (amendment,) = read_amendments(HEAD + items + "\nPasal II\nBerlaku.", RegulationRef("UU"))
    return {
        i.ordinal: [p.number for p in i.new_pasal]
        for i in amendment.instructions
        if i.operation is Operation.INSERT
    }


def test_a_number_that_cannot_sort_between_its_neighbours_is_read_as_the_one_that_does() -> None:
    named = instruction_pasal(
        "Di antara Pasa1 9 dan Pasal 10 disisipkan 1 (satu) pasal yakni Pasal 94, sehingga "
        "Pasal 9A berbunyi sebagai berikut:"
    )
    assert named == {"9", "9A", "10"}


def test_a_letter_printed_as_marks_is_read_as_the_letter() -> None:
    named = instruction_pasal(
        "Di antara Pasal 51 dan Pasal 52 disisipkan 2 (dua) pasal yakni Pasal 51A dan Pasal "
        "5lE} sehingga Pasal 51A dan Pasal 5lEl berbunyi sebagai berikut:"
    )
    assert named == {"51", "51A", "51B", "52"}


def test_the_inserted_pasal_land_under_the_numbers_the_law_gave_them() -> None:
    inserted = _inserted(
        "1. Di antara Pasal 9 dan Pasal 10 disisipkan 1 (satu) pasal yakni Pasal 94, sehingga "
        "Pasal 9A berbunyi sebagai berikut: Pasal 9,4' (1) Status Jalan Umum dapat dievaluasi.\n"
        "2. Di antara Bab VII dan Bab VIII disisipkan 1 (satu) bab, yakni Bab VIIA sehingga "
        "Bab VIIA berbunyi sebagai berikut: BAB VIIA PENYIDIKAN Pasal 624' (1) Selain pejabat "
        "penyidik Kepolisian, pegawai negeri sipil diberi wewenang khusus sebagai penyidik.\n"
    )
    assert inserted == {1: ["9A"], 2: ["62A"]}


def test_a_plain_number_between_its_neighbours_stays_as_printed() -> None:
    named = instruction_pasal(
        "Di antara Pasal 40 dan Pasal 50 disisipkan 1 (satu) pasal yakni Pasal 44 sehingga "
        "berbunyi sebagai berikut:"
    )
    assert named == {"40", "44", "50"}
