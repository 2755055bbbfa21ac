"""text_at gives the version in force on a date: none before a Pasal existed."""

from __future__ import annotations

from datetime import date

from ingestion.legal.amendments.apply import PasalHistory, PasalState, Version, text_at


def test_each_date_falls_in_one_period() -> None:
    history = PasalHistory(
        "26",
        "I",
        [
            Version("26", PasalState.ORIGINAL, "Lama.", date(2008, 4, 21), date(2016, 11, 25)),
            Version("26", PasalState.AMENDED, "Baru.", date(2016, 11, 25), None),
        ],
    )
    assert text_at(history, date(2008, 4, 20)) is None
    old = text_at(history, date(2016, 11, 24))
    assert old is not None and old.text == "Lama."
    new = text_at(history, date(2016, 11, 25))
    assert new is not None and new.text == "Baru."
    later = text_at(history, date(2030, 1, 1))
    assert later is not None and later.text == "Baru."


def test_an_undated_original_is_in_force_until_its_first_amendment() -> None:
    history = PasalHistory(
        "5", None, [Version("5", PasalState.ORIGINAL, "Lama.", None, date(2001, 11, 21))]
    )
    found = text_at(history, date(1950, 1, 1))
    assert found is not None and found.text == "Lama."
    assert text_at(history, date(2001, 11, 21)) is None
