"""A chunk's section titles are the parts of its heading path above its Pasal: the BAB,
Bagian and Paragraf, never the Pasal, ayat or angka under them."""

from __future__ import annotations

import pytest

from ingestion.legal.units import above_pasal


@pytest.mark.parametrize(
    ("path", "titles"),
    [
        (
            "BAB II PENGATURAN › Bagian Kesatu Umum › Pasal 12",
            "BAB II PENGATURAN › Bagian Kesatu Umum",
        ),
        ("BAB I KETENTUAN UMUM › Pasal 1 › angka 7", "BAB I KETENTUAN UMUM"),
        ("PENJELASAN › Pasal 34C", "PENJELASAN"),
        ("Pasal II", ""),
        ("Pembukaan", "Pembukaan"),
        ("", ""),
    ],
)
def test_the_titles_stop_at_the_first_pasal(path: str, titles: str) -> None:
    assert above_pasal(path) == titles


def test_a_title_that_only_begins_like_pasal_is_kept() -> None:
    assert above_pasal("BAB III PASAL-PASAL PERALIHAN › Pasal 9") == "BAB III PASAL-PASAL PERALIHAN"
