"""Consolidation is a pure function of its inputs: rebuilding it (a re-ingest) changes nothing."""

from __future__ import annotations

from ingestion.legal.amendments.apply import consolidate
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending, BuildOriginal


def test_two_builds_from_the_same_texts_are_equal(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    original_text = build_original([("26", "(1) Satu.\n(2) Dua."), ("27", "Lama.")])
    amending = build_amending(
        [
            "Ketentuan Pasal 26 ditambah 1 (satu) ayat, yakni ayat (3), sehingga Pasal 26 "
            "berbunyi sebagai berikut:\nPasal 26\n(1) Satu.\n(2) Dua.\n(3) Tiga.",
            "Pasal 27 dihapus.",
        ]
    )

    def build() -> object:
        amendments = read_amendments(amending, UU_19_2016)
        return consolidate(pasal_texts(original_text), None, amendments, [UU_19_2016])

    assert build() == build()
