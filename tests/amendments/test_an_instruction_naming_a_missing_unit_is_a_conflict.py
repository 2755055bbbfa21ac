"""An instruction naming a Pasal or ayat the target lacks is reported and not applied."""

from __future__ import annotations

from ingestion.legal.amendments.apply import PasalState, consolidate
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending, BuildOriginal


def test_a_missing_pasal_and_a_missing_ayat_are_conflicts(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    original = pasal_texts(build_original([("1", "(1) Satu.\n(2) Dua."), ("2", "Dua.")]))
    text = build_amending(
        [
            "Ketentuan Pasal 9 diubah sehingga berbunyi sebagai berikut:\nPasal 9\nSembilan.",
            "Pasal 7 dihapus.",
            "Ketentuan ayat (5) Pasal 1 diubah sehingga berbunyi sebagai berikut:\n(5) Lima.",
            "Pasal 2 dihapus.",
        ]
    )
    amendments = read_amendments(text, UU_19_2016)
    result = consolidate(original, None, amendments, [UU_19_2016])

    reasons = {i.ordinal: reason for i, reason in result.conflicts}
    assert reasons == {
        1: "Pasal 9 tidak ada dalam peraturan yang diubah.",
        2: "Pasal 7 tidak ada dalam peraturan yang diubah.",
        3: "Pasal 1 ayat (5) tidak ada: Pasal 1 tidak memiliki ayat (5).",
    }
    assert [i.ordinal for i in result.applied] == [4]
    assert [h.number for h in result.pasals] == ["1", "2"]
    assert result.pasals[0].versions[-1].state is PasalState.ORIGINAL
    assert result.pasals[1].versions[-1].state is PasalState.DELETED
