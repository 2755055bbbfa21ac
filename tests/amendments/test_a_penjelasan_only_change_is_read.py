"""'Ketentuan Pasal 5 tetap dengan perubahan penjelasan …' changes only the Penjelasan."""

from __future__ import annotations

import pytest

from ingestion.legal.amendments.model import Operation, Target
from ingestion.legal.amendments.read import read_amendments
from tests.amendments.conftest import UU_19_2016, BuildAmending


@pytest.mark.parametrize(
    "sentence",
    [
        "Ketentuan Pasal 5 tetap dengan perubahan penjelasan Pasal 5 sehingga penjelasan Pasal 5 "
        "menjadi sebagaimana ditetapkan dalam penjelasan pasal demi pasal.",
        "Penjelasan Pasal 5 diubah sehingga berbunyi sebagaimana tercantum dalam penjelasan.",
        "Pasal 5 substansi tetap, penjelasan pasal diubah sebagaimana tercantum dalam penjelasan.",
    ],
)
def test_a_penjelasan_only_change_names_its_pasal(
    build_amending: BuildAmending, sentence: str
) -> None:
    [instruction] = read_amendments(build_amending([sentence]), UU_19_2016)[0].instructions
    assert instruction.operation is Operation.PENJELASAN
    assert Target(pasal="5") in instruction.targets
    assert instruction.new_pasal == ()
