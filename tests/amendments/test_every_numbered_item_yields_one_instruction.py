"""Every numbered item of Pasal I yields exactly one instruction, in a list of any length."""

from __future__ import annotations

from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending


def test_three_thousand_items_give_three_thousand_instructions(
    build_amending: BuildAmending,
) -> None:
    text = build_amending([f"Pasal {n} dihapus." for n in range(1, 3001)])
    instructions = read_amendments(text, UU_19_2016)[0].instructions
    assert [i.ordinal for i in instructions] == list(range(1, 3001))
    assert all(i.operation is not None for i in instructions)
    assert instructions[-1].targets[0].pasal == "3000"


def test_page_furniture_between_items_is_not_read_as_wording(
    build_amending: BuildAmending,
) -> None:
    text = build_amending(
        [
            "Ketentuan Pasal 6 diubah sehingga berbunyi sebagai berikut:\nPasal 6\n"
            "(1) Satu.\n- 3 -\nPRESIDEN REPUBLIK INDONESIA\n(2) Dua.",
            "Pasal 7 dihapus.",
        ]
    )
    first, second = read_amendments(text, UU_19_2016)[0].instructions
    assert first.new_pasal[0].text == "(1) Satu.\n(2) Dua."
    assert second.targets[0].pasal == "7"
