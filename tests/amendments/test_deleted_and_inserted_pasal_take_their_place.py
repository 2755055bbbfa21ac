"""Deleted Pasal read 'Dihapus.'; inserted Pasal stand where they were inserted."""

from __future__ import annotations

from datetime import date

from ingestion.legal.amendments.apply import PasalState, consolidate
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending, BuildOriginal


def test_deletions_and_insertions(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    original = pasal_texts(build_original([("26", "Lama."), ("27", "Dua tujuh."), ("28", "X.")]))
    text = build_amending(
        [
            "Pasal 26 dihapus.",
            "Di antara Pasal 27 dan Pasal 28 disisipkan 2 (dua) pasal, yakni Pasal 27A dan "
            "Pasal 27B yang berbunyi sebagai berikut:\nPasal 27A\nSatu.\nPasal 27B\nDua.",
        ]
    )
    result = consolidate(
        original, date(2008, 4, 21), read_amendments(text, UU_19_2016), [UU_19_2016]
    )
    assert [h.number for h in result.pasals] == ["26", "27", "27A", "27B", "28"]
    deleted = result.pasals[0].versions[-1]
    assert (deleted.state, deleted.text) == (PasalState.DELETED, "Dihapus.")
    assert deleted.valid_from == date(2016, 11, 25)
    assert result.pasals[0].versions[0].valid_to == date(2016, 11, 25)
    inserted = result.pasals[2]
    assert [(v.state, v.text) for v in inserted.versions] == [(PasalState.INSERTED, "Satu.")]
    assert inserted.bab == result.pasals[1].bab == "I"
    assert result.pasals[1].versions[-1].state is PasalState.ORIGINAL


def test_a_deleted_bab_deletes_its_pasal(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    text = build_original([("1", "Satu.")]).replace(
        "Agar setiap", "BAB II LAIN\nPasal 2\nDua.\nPasal 3\nTiga.\nAgar setiap"
    )
    result = consolidate(
        pasal_texts(text),
        None,
        read_amendments(build_amending(["Bab II dihapus."]), UU_19_2016),
        [UU_19_2016],
    )
    assert [h.versions[-1].state for h in result.pasals] == [
        PasalState.ORIGINAL,
        PasalState.DELETED,
        PasalState.DELETED,
    ]
