"""'ditambah 1 (satu) ayat, yakni ayat (4)', 'Pasal 16 dihapus.' and 'Bab V dihapus.'."""

from __future__ import annotations

from ingestion.legal.amendments.model import Operation, Target
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending


def test_an_added_ayat_is_read_as_added_units(build_amending: BuildAmending) -> None:
    text = build_amending(
        [
            "Pasal 34 ditambah 1 (satu) ayat, yakni ayat (4), sehingga Pasal 34 berbunyi sebagai "
            "berikut:\nPasal 34\n(1) Satu.\n(2) Dua.\n(3) Tiga.\n(4) Empat."
        ]
    )
    [instruction] = read_amendments(text, UU_19_2016)[0].instructions
    assert instruction.operation is Operation.ADD_UNITS
    assert instruction.targets == (Target(pasal="34", ayat="4"),)
    assert instruction.new_pasal[0].number == "34"


def test_a_deleted_pasal_and_a_deleted_bab_are_read(build_amending: BuildAmending) -> None:
    text = build_amending(["Pasal 16 dihapus.", "Bab V dihapus.", "Ketentuan Pasal 17 dihapus."])
    pasal, bab, ketentuan = read_amendments(text, UU_19_2016)[0].instructions
    assert (pasal.operation, pasal.targets) == (Operation.DELETE, (Target(pasal="16"),))
    assert (bab.operation, bab.targets) == (Operation.DELETE, (Target(bab="V"),))
    assert ketentuan.targets == (Target(pasal="17"),)
    assert [i.ordinal for i in (pasal, bab, ketentuan)] == [1, 2, 3]
