"""Without a date in every amendment, the chain is ordered by year and number, and says so."""

from __future__ import annotations

from ingestion.legal.amendments.apply import consolidate
from ingestion.legal.amendments.model import AmendmentText, Instruction, NewPasal, Operation, Target
from ingestion.legal.amendments.pasal import PasalText
from ingestion.legal.citation import RegulationRef


def _replacing(wording: str) -> AmendmentText:
    instruction = Instruction(
        1,
        "Pasal I angka 1",
        Operation.REPLACE,
        (Target(pasal="5"),),
        new_pasal=(NewPasal("5", wording),),
    )
    return AmendmentText(
        target=RegulationRef("Undang-Undang", "1", "1990"), instructions=(instruction,)
    )


def test_the_later_number_of_the_same_year_applies_last() -> None:
    refs = [
        RegulationRef("Undang-Undang", "12", "2000"),
        RegulationRef("Undang-Undang", "3", "2000"),
    ]
    result = consolidate(
        [PasalText("5", None, "Asli.")], None, [_replacing("Kedua."), _replacing("Pertama.")], refs
    )
    assert not result.dated_by_text
    assert [v.text for v in result.pasals[0].versions] == ["Asli.", "Pertama.", "Kedua."]
