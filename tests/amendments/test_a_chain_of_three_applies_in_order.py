"""KUP (UU 6/1983) amended by UU 9/1994, 16/2000 and 28/2007: applied in date order."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ingestion.legal.amendments.apply import PasalState, consolidate, text_at
from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.read import read_amendments, regulation_dates
from ingestion.legal.amendments.text import normalise_space
from ingestion.legal.citation import RegulationRef

KUP = [
    "uu_9_1994_perubahan_kup.md",
    "uu_16_2000_perubahan_kedua_kup.md",
    "uu_28_2007_perubahan_ketiga_kup.md",
]


def _ref(name: str) -> RegulationRef:
    _, nomor, tahun, *_ = name.split("_")
    return RegulationRef("Undang-Undang", nomor, tahun)


def test_a_pasal_changed_three_times_has_four_versions_in_order(corpus_amendments: Path) -> None:
    original_text = (corpus_amendments / "uu_6_1983_kup.md").read_text()
    texts = {name: (corpus_amendments / name).read_text() for name in KUP}
    # Supplied newest first: the order comes from the dates in the texts.
    names = list(reversed(KUP))
    amendments = [read_amendments(texts[n], _ref(n))[0] for n in names]
    _, in_force = regulation_dates(original_text)
    result = consolidate(pasal_texts(original_text), in_force, amendments, [_ref(n) for n in names])

    assert result.dated_by_text and result.chain_complete and not result.missing
    [pasal_2] = [h for h in result.pasals if h.number == "2"]
    assert [v.state for v in pasal_2.versions] == [PasalState.ORIGINAL] + [PasalState.AMENDED] * 3
    assert [v.amending.short for v in pasal_2.versions[1:] if v.amending] == [
        "UU 9/1994",
        "UU 16/2000",
        "UU 28/2007",
    ]
    assert [v.valid_from for v in pasal_2.versions] == [
        date(1984, 1, 1),
        date(1995, 1, 1),
        date(2001, 1, 1),
        date(2008, 1, 1),
    ]
    assert [v.valid_to for v in pasal_2.versions] == [
        v.valid_from for v in pasal_2.versions[1:]
    ] + [None]
    restated = next(
        p.text for i in amendments[0].instructions for p in i.new_pasal if p.number == "2"
    )
    assert normalise_space(pasal_2.versions[-1].text) == normalise_space(restated)
    in_1999 = text_at(pasal_2, date(1999, 6, 1))
    assert in_1999 is not None and in_1999.amending is not None
    assert in_1999.amending.short == "UU 9/1994"


def test_pasal_inserted_by_the_first_amendment_are_amended_by_the_later_ones(
    corpus_amendments: Path,
) -> None:
    original_text = (corpus_amendments / "uu_6_1983_kup.md").read_text()
    amendments = [read_amendments((corpus_amendments / n).read_text(), _ref(n))[0] for n in KUP]
    result = consolidate(pasal_texts(original_text), None, amendments, [_ref(n) for n in KUP])
    assert not result.conflicts
    [pasal_17b] = [h for h in result.pasals if h.number == "17B"]
    assert pasal_17b.versions[0].state is PasalState.INSERTED
    assert pasal_17b.versions[-1].amending == _ref(KUP[2])
    numbers = [h.number for h in result.pasals]
    assert numbers.index("17") < numbers.index("17A") < numbers.index("17B") < numbers.index("18")
