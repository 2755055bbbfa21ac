"""An item that cannot be read is kept with its text and an Indonesian reason."""

from __future__ import annotations

from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending


def test_an_item_without_an_amending_verb_is_unparsed_not_dropped(
    build_amending: BuildAmending,
) -> None:
    text = build_amending(
        ["Pasal 3 dihapus.", "Ketentuan Pasal 4 dibaca dengan sungguh-sungguh.", "Pasal 5 dihapus."]
    )
    instructions = read_amendments(text, UU_19_2016)[0].instructions
    assert [i.ordinal for i in instructions] == [1, 2, 3]
    unreadable = instructions[1]
    assert unreadable.operation is None
    assert "Pasal 4 dibaca" in unreadable.text
    assert unreadable.reason == "Jenis perubahan tidak dikenali."


def test_a_replacement_without_its_new_wording_is_unparsed(build_amending: BuildAmending) -> None:
    text = build_amending(["Ketentuan Pasal 6 diubah sehingga berbunyi sebagai berikut:"])
    [instruction] = read_amendments(text, UU_19_2016)[0].instructions
    assert instruction.operation is None
    assert instruction.reason == "Rumusan baru tidak ditemukan."


def test_a_lost_item_number_is_kept_as_an_unparsed_item(build_amending: BuildAmending) -> None:
    text = build_amending(["Pasal 3 dihapus.", "Pasal 4 dihapus.", "Pasal 5 dihapus."])
    text = text.replace("2. Pasal 4 dihapus.", "halaman rusak")
    instructions = read_amendments(text, UU_19_2016)[0].instructions
    assert [(i.ordinal, i.operation is None) for i in instructions] == [
        (1, False),
        (2, True),
        (3, False),
    ]
    assert "tidak ditemukan" in instructions[1].reason
