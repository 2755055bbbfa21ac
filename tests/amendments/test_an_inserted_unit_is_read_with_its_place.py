"""'Di antara X dan Y disisipkan …' for a Pasal, an ayat, a huruf and an angka."""

from __future__ import annotations

import pytest

from ingestion.legal.amendments.model import Operation, Target
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending


def test_an_inserted_pasal_names_its_neighbours_and_its_wording(
    build_amending: BuildAmending,
) -> None:
    text = build_amending(
        [
            "Di antara Pasal 128 dan Pasal 129 disisipkan 1 (satu) pasal, yakni Pasal 128A "
            "yang berbunyi sebagai berikut:\nPasal 128A\nSetiap orang dilarang."
        ]
    )
    [instruction] = read_amendments(text, UU_19_2016)[0].instructions
    assert instruction.operation is Operation.INSERT
    assert instruction.targets == (Target(pasal="128A"),)
    assert instruction.after == Target(pasal="128")
    assert instruction.before == Target(pasal="129")
    assert [(p.number, p.text) for p in instruction.new_pasal] == [
        ("128A", "Setiap orang dilarang.")
    ]


def test_two_inserted_pasal_written_diantara_and_yaitu_are_both_read(
    build_amending: BuildAmending,
) -> None:
    text = build_amending(
        [
            "Diantara Pasal 27 dan Pasal 28 disisipkan 2 (dua) pasal, yaitu Pasal 27A dan "
            "Pasal 27B yang berbunyi sebagai berikut:\nPasal 27A\nSatu.\nPasal 27B\nDua."
        ]
    )
    [instruction] = read_amendments(text, UU_19_2016)[0].instructions
    assert instruction.operation is Operation.INSERT
    assert instruction.targets == (Target(pasal="27A"), Target(pasal="27B"))
    assert [p.number for p in instruction.new_pasal] == ["27A", "27B"]


@pytest.mark.parametrize(
    ("sentence", "target", "after"),
    [
        (
            "Di antara ayat (1) dan ayat (2) Pasal 35 disisipkan 1 (satu) ayat, yakni ayat (1a), "
            "sehingga Pasal 35 berbunyi sebagai berikut:",
            Target(pasal="35", ayat="1a"),
            Target(pasal="35", ayat="1"),
        ),
        (
            "Ketentuan Pasal 101 ayat (1), di antara huruf d dan huruf e, disisipkan huruf d1, "
            "sehingga Pasal 101 berbunyi sebagai berikut:",
            Target(pasal="101", ayat="1", huruf="d1"),
            Target(pasal="101", ayat="1", huruf="d"),
        ),
        (
            "Di antara angka 6 dan angka 7 Pasal 1 disisipkan 1 (satu) angka, yakni angka 6a, "
            "sehingga Pasal 1 berbunyi sebagai berikut:",
            Target(pasal="1", angka="6a"),
            Target(pasal="1", angka="6"),
        ),
    ],
)
def test_an_inserted_ayat_huruf_or_angka_names_its_unit(
    build_amending: BuildAmending, sentence: str, target: Target, after: Target
) -> None:
    number = target.pasal
    text = build_amending([f"{sentence}\nPasal {number}\n(1) Isi baru."])
    [instruction] = read_amendments(text, UU_19_2016)[0].instructions
    assert instruction.operation is Operation.INSERT
    assert instruction.targets == (target,)
    assert instruction.after == after
    assert [p.number for p in instruction.new_pasal] == [number]
