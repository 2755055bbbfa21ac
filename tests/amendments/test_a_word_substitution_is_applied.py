"""'perkataan "X" diganti dengan perkataan "Y"' changes those words in the Pasal named."""

from __future__ import annotations

from ingestion.legal.amendments.apply import consolidate
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending, BuildOriginal


def test_the_words_are_replaced_and_a_missing_word_is_a_conflict(
    build_amending: BuildAmending, build_original: BuildOriginal
) -> None:
    original = pasal_texts(
        build_original([("91", "Anggota ABRI tidak\nberkampanye."), ("92", "Lain.")])
    )
    text = build_amending(
        [
            'Pada Pasal 91 perkataan "Anggota ABRI" diganti dengan perkataan "Prajurit ABRI".',
            'Pada Pasal 92 perkataan "Anggota ABRI" diganti dengan perkataan "Prajurit ABRI".',
        ]
    )
    result = consolidate(original, None, read_amendments(text, UU_19_2016), [UU_19_2016])
    assert result.pasals[0].versions[-1].text == "Prajurit ABRI tidak\nberkampanye."
    [(instruction, reason)] = result.conflicts
    assert instruction.ordinal == 2
    assert reason == 'Kata "Anggota ABRI" tidak ditemukan dalam Pasal 92.'
