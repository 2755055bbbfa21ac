"""'Ketentuan Pasal 6 diubah sehingga berbunyi …' and its ayat-level variants are read."""

from __future__ import annotations

from ingestion.legal.amendments.model import Operation, Target
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending


def test_a_replaced_pasal_carries_its_whole_new_wording(build_amending: BuildAmending) -> None:
    text = build_amending(
        [
            "Ketentuan Pasal 6 diubah sehingga berbunyi sebagai berikut:\n"
            "Pasal 6\n(1) Setiap orang wajib menjaga informasi.\n(2) Ketentuan lebih lanjut diatur."
        ]
    )
    [amendment] = read_amendments(text, UU_19_2016)
    [instruction] = amendment.instructions
    assert instruction.operation is Operation.REPLACE
    assert instruction.targets == (Target(pasal="6"),)
    assert instruction.source == "UU 19/2016 Pasal I angka 1"
    [new] = instruction.new_pasal
    assert new.number == "6"
    assert (
        new.text == "(1) Setiap orang wajib menjaga informasi.\n(2) Ketentuan lebih lanjut diatur."
    )


def test_the_ayat_named_before_their_pasal_are_its_targets(build_amending: BuildAmending) -> None:
    text = build_amending(
        [
            "Ketentuan ayat (2) dan ayat (3) Pasal 8 diubah sehingga Pasal 8 berbunyi sebagai "
            "berikut:\nPasal 8\n(1) Satu.\n(2) Dua baru.\n(3) Tiga baru."
        ]
    )
    [instruction] = read_amendments(text, UU_19_2016)[0].instructions
    assert instruction.operation is Operation.REPLACE
    assert instruction.targets == (Target(pasal="8", ayat="2"), Target(pasal="8", ayat="3"))
    assert [p.number for p in instruction.new_pasal] == ["8"]


def test_a_deleted_ayat_with_the_pasal_restated_is_a_delete(build_amending: BuildAmending) -> None:
    text = build_amending(
        [
            "Pasal 18 ayat (2) dihapus sehingga Pasal 18 berbunyi sebagai berikut:\n"
            "Pasal 18\n(1) Satu.\n(2) Dihapus."
        ]
    )
    [instruction] = read_amendments(text, UU_19_2016)[0].instructions
    assert instruction.operation is Operation.DELETE
    assert instruction.targets == (Target(pasal="18", ayat="2"),)
    assert instruction.new_pasal[0].text == "(1) Satu.\n(2) Dihapus."


def test_a_restated_pasal_quoting_other_pasal_keeps_only_its_own(
    build_amending: BuildAmending,
) -> None:
    text = build_amending(
        [
            "Ketentuan Pasal 5, Pasal 6, dan Pasal 7 diubah, sehingga berbunyi sebagai berikut:\n"
            "“Pasal 5\nSatu sebagaimana dimaksud dalam Pasal 9.\nPasal 6\nDua.\nPasal 7\nTiga.”"
        ]
    )
    [instruction] = read_amendments(text, UU_19_2016)[0].instructions
    assert [p.number for p in instruction.new_pasal] == ["5", "6", "7"]
    assert instruction.new_pasal[0].text == "Satu sebagaimana dimaksud dalam Pasal 9."
    assert instruction.new_pasal[2].text == "Tiga."
