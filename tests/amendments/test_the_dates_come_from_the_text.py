"""'Diundangkan di Jakarta pada tanggal …' and 'mulai berlaku pada tanggal …' give the dates."""

from __future__ import annotations

from datetime import date

from ingestion.legal.amendments.read import read_amendments, regulation_dates
from tests.amendments.conftest import UU_19_2016, BuildAmending


def test_in_force_on_enactment_takes_the_enactment_date(build_amending: BuildAmending) -> None:
    [amendment] = read_amendments(build_amending(["Pasal 3 dihapus."]), UU_19_2016)
    assert amendment.enacted == date(2016, 11, 25)
    assert amendment.effective == date(2016, 11, 25)


def test_a_later_date_stated_in_the_text_is_the_date_in_force(
    build_amending: BuildAmending,
) -> None:
    text = build_amending(
        ["Pasal 3 dihapus."], enacted="17 Juli 2007", in_force="pada tanggal 1 Januari 2008"
    )
    [amendment] = read_amendments(text, UU_19_2016)
    assert (amendment.enacted, amendment.effective) == (date(2007, 7, 17), date(2008, 1, 1))


def test_an_ocr_damaged_date_is_still_read(build_amending: BuildAmending) -> None:
    text = build_amending(["Pasal 3 dihapus."], enacted="L2 Januari 2O22")
    assert regulation_dates(text) == (date(2022, 1, 12), date(2022, 1, 12))


def test_a_text_without_dates_has_none() -> None:
    assert regulation_dates("Pasal 1\nTidak ada tanggal.") == (None, None)
