"""OCR damage in an instruction: '(21' for '(2)', '2OO4', 'Pasa-l', 'l' for '1'."""

from __future__ import annotations

from ingestion.legal.amendments.model import Operation, Target
from ingestion.legal.amendments.read import read_amendments
from ingestion.legal.amendments.text import fix_numbers
from tests.amendments.conftest import UU_19_2016, BuildAmending


def test_damaged_numbers_are_repaired() -> None:
    assert fix_numbers("ayat (21 dan ayat (3)") == "ayat (2) dan ayat (3)"
    assert fix_numbers("Nomor 38 Tahun 2OO4") == "Nomor 38 Tahun 2004"
    assert fix_numbers("Pasa-l 5l") == "Pasal 51"
    assert fix_numbers("Pasal 12 A, Pasal 12 B") == "Pasal 12A, Pasal 12B"


def test_an_instruction_with_damaged_numbers_is_read(build_amending: BuildAmending) -> None:
    text = build_amending(
        [
            "Ketentuan Pasal 47 ayat (21 dan ayat (3) diubah sehingga Pasa-l 47 berbunyi sebagai "
            "berikut:\nPasal 47\n(1) Satu.\n(2) Dua.\n(3) Tiga."
        ],
        target="Undang-Undang Nomor 38 Tahun 2OO4 tentang Jalan",
    )
    [amendment] = read_amendments(text, UU_19_2016)
    assert amendment.target is not None and amendment.target.short == "UU 38/2004"
    [instruction] = amendment.instructions
    assert instruction.operation is Operation.REPLACE
    assert instruction.targets == (Target(pasal="47", ayat="2"), Target(pasal="47", ayat="3"))


def test_an_item_number_read_as_a_letter_still_opens_an_item(
    build_amending: BuildAmending,
) -> None:
    text = build_amending(["Pasal 3 dihapus.", "Pasal 4 dihapus."]).replace(
        "1. Pasal 3", "I Ketentuan Pasal 3"
    )
    first, second = read_amendments(text, UU_19_2016)[0].instructions
    assert (first.ordinal, first.targets) == (1, (Target(pasal="3"),))
    assert (second.ordinal, second.targets) == (2, (Target(pasal="4"),))
