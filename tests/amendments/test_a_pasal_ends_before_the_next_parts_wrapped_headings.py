"""A Pasal's wording stops at the BAB / Bagian headings that open the next part, also when
a PDF wrapped the heading's title onto lines of its own."""

from __future__ import annotations

from ingestion.legal.amendments.pasal import split_pasal

BODY = """Pasal 371
(1) Pemerintah Daerah wajib melaksanakan pembinaan.
(2) Ketentuan lebih lanjut diatur dengan Peraturan Pemerintah.
BAB XIII
KEUANGAN
Daerah
Bagian Kesatu
Umum
Pasal 372
(1) Penyelenggaraan urusan didanai dari anggaran.
"""


def test_the_wrapped_bab_and_bagian_headings_are_not_part_of_the_pasal_before() -> None:
    first = split_pasal(BODY)[0]
    assert first.number == "371"
    assert first.text.rstrip().endswith("diatur dengan Peraturan Pemerintah.")


def test_a_pasal_whose_last_line_has_no_full_stop_keeps_it() -> None:
    body = "Pasal 5\n(1) Menteri menetapkan:\na. Tarif Dasar\nPasal 6\nCukup.\n"
    assert split_pasal(body)[0].text.rstrip().endswith("a. Tarif Dasar")
