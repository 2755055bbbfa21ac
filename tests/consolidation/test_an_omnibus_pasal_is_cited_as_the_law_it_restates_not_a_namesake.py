"""An omnibus law restates "Pasal 17" of two laws. Only one of them (UU 38/2004) is in the
corpus and consolidated. The other law's Pasal 17, as the omnibus restates it, is never
cited as UU 38/2004 Pasal 17: the number is the same, the words are not (at 1,535 UU,
Cipta Kerja's restated definitions of UU 18/2017 were cited as UU 30/2014 Pasal 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.consolidation.helpers import JALAN, ingest, search_fresh

pytestmark = pytest.mark.django_db

ROADS = "Jalan umum diatur oleh Pemerintah Pusat dengan memperhatikan kepentingan daerah."
TRAINING = (
    "Pelatihan kerja bagi tenaga kerja penyandang disabilitas dilaksanakan dengan"
    " memperhatikan jenis, derajat kedisabilitasan, dan kemampuan tenaga kerja yang"
    " bersangkutan."
)
OMNIBUS = f"""UNDANG-UNDANG REPUBLIK INDONESIA
NOMOR 11 TAHUN 2020
TENTANG
CIPTA KERJA
DENGAN RAHMAT TUHAN YANG MAHA ESA
PRESIDEN REPUBLIK INDONESIA,
Menimbang :
a. bahwa perlu diadakan perubahan;
MEMUTUSKAN:
Menetapkan : UNDANG-UNDANG TENTANG CIPTA KERJA.
Pasal 80
Beberapa ketentuan dalam Undang-Undang Nomor 38 Tahun 2004 tentang Jalan (Lembaran Negara
Republik Indonesia Tahun 2004 Nomor 132) diubah sebagai berikut:
1. Ketentuan Pasal 17 diubah sehingga berbunyi sebagai berikut:
Pasal 17
{ROADS}
Pasal 81
Beberapa ketentuan dalam Undang-Undang Nomor 13 Tahun 2003 tentang Ketenagakerjaan (Lembaran
Negara Republik Indonesia Tahun 2003 Nomor 39) diubah sebagai berikut:
1. Ketentuan Pasal 17 diubah sehingga berbunyi sebagai berikut:
Pasal 17
{TRAINING}
Pasal 82
Undang-Undang ini mulai berlaku pada tanggal diundangkan.
Disahkan di Jakarta
pada tanggal 2 November 2020
Diundangkan di Jakarta
pada tanggal 2 November 2020
"""


@pytest.fixture
def omnibus(store_dir: Path) -> str:
    ingest(store_dir, JALAN[0])
    return str(ingest(store_dir, "uu_11_2020_cipta_kerja.md", OMNIBUS))


def _restating(text: str, omnibus: str) -> list[str]:
    """How the omnibus's Pasal 17 holding ``text`` is cited (the other Pasal 17, which
    restates the other law, may be on the same list, rightly cited as that law's)."""
    return [
        str(h.citation)
        for h in search_fresh(text)
        if h.document_id == omnibus
        and h.unit
        and h.unit.get("pasal") == "17"
        and text[:40] in (h.unit_text or h.text)
    ]


def test_the_other_laws_pasal_is_not_cited_as_the_consolidated_namesake(omnibus: str) -> None:
    cited = _restating(TRAINING, omnibus)
    assert cited, "the omnibus's restated Pasal 17 of UU 13/2003 is found"
    assert not any(c.startswith("UU 38/2004") for c in cited), cited


def test_the_consolidated_laws_own_pasal_is_still_cited_as_its_unit(omnibus: str) -> None:
    cited = _restating(ROADS, omnibus)
    assert cited and cited[0].startswith("UU 38/2004 Pasal 17"), cited
