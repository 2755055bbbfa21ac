"""'Ketentuan Bab II diubah sehingga Bab II berbunyi …' replaces the Bab's Pasal as a whole."""

from __future__ import annotations

from ingestion.legal.amendments.apply import PasalState, consolidate
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending, BuildOriginal


def test_the_new_wording_replaces_adds_and_ends_pasal(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    text = build_original([("1", "Satu.")]).replace(
        "Agar setiap",
        "BAB II LAIN\nPasal 2\nDua.\nPasal 3\nTiga.\nPasal 4\nEmpat.\nAgar setiap",
    )
    amending = build_amending(
        [
            "Ketentuan Bab II diubah sehingga Bab II berbunyi sebagai berikut:\n"
            "BAB II LAIN\nParagraf 1 Umum Pasal 2 (1) Dua baru.\n(2) Lagi.\nPasal 2A\n"
            "Sisipan sebagaimana dimaksud dalam Pasal 4.\nPasal 3\nTiga baru."
        ]
    )
    result = consolidate(
        pasal_texts(text), None, read_amendments(amending, UU_19_2016), [UU_19_2016]
    )
    final = {h.number: h.versions[-1] for h in result.pasals}
    assert [h.number for h in result.pasals] == ["1", "2", "2A", "3", "4"]
    assert final["2"].text == "(1) Dua baru.\n(2) Lagi."
    assert final["2A"].state is PasalState.INSERTED
    assert final["3"].text == "Tiga baru."
    # Pasal 4 is named in the new wording: perhaps a heading lost to OCR, so it is kept.
    assert final["4"].state is PasalState.ORIGINAL


def test_a_pasal_the_new_bab_never_names_is_ended(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    text = build_original([("1", "Satu.")]).replace(
        "Agar setiap", "BAB II LAIN\nPasal 2\nDua.\nPasal 3\nTiga.\nAgar setiap"
    )
    amending = build_amending(
        [
            "Ketentuan Bab II diubah sehingga Bab II berbunyi sebagai berikut:\n"
            "BAB II\nPasal 2\nBaru."
        ]
    )
    result = consolidate(
        pasal_texts(text), None, read_amendments(amending, UU_19_2016), [UU_19_2016]
    )
    final = {h.number: h.versions[-1] for h in result.pasals}
    assert final["2"].text == "Baru."
    assert (final["3"].state, final["3"].text) == (PasalState.DELETED, "Dihapus.")
