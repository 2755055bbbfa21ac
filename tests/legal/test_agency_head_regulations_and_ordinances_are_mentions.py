"""Two older jenis that closing provisions repeal: "Peraturan Kepala Badan …" (Perka) and the
colonial "Ordonansi"; a Staatsblad ordinance without a number is still no mention."""

from __future__ import annotations

import pytest

from ingestion.legal.citation import RegulationRef, find_regulations

CASES: list[tuple[str, RegulationRef, str]] = [
    (
        "Peraturan Kepala Badan Pengawas Tenaga Nuklir Nomor 6 Tahun 2013 tentang Izin Bekerja",
        RegulationRef("Peraturan Kepala Badan", "6", "2013", "Pengawas Tenaga Nuklir"),
        "Perka Pengawas Tenaga Nuklir 6/2013",
    ),
    (
        "Ordonansi Nomor 9 Tahun 1949 tentang Pembatasan Kerja Anak-anak",
        RegulationRef("Ordonansi", "9", "1949"),
        "Ordonansi 9/1949",
    ),
    (
        "Peraturan Badan Pengawas Tenaga Nuklir Nomor 1 Tahun 2019",
        RegulationRef("Peraturan Badan", "1", "2019", "Pengawas Tenaga Nuklir"),
        "Perba Pengawas Tenaga Nuklir 1/2019",
    ),
]


@pytest.mark.parametrize(("text", "ref", "short"), CASES)
def test_the_mention_and_its_short_citation(text: str, ref: RegulationRef, short: str) -> None:
    found = find_regulations(text)
    assert found and found[0][0] == ref
    assert found[0][0].short == short


def test_an_ordinance_known_only_by_its_staatsblad_is_no_mention() -> None:
    assert (
        find_regulations("Ordonansi tentang Pemulangan Buruh (Staatsblad Tahun 1939 Nomor 545)")
        == []
    )
