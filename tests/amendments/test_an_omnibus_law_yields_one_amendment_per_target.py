"""An omnibus law ('Pasal 81: beberapa ketentuan dalam UU 13/2003 … diubah') is split."""

from __future__ import annotations

from ingestion.legal.amendments.model import Operation
from ingestion.legal.amendments.read import read_amendments
from ingestion.legal.citation import RegulationRef

OMNIBUS = """UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 11 TAHUN 2020 TENTANG CIPTA KERJA
MEMUTUSKAN:
Menetapkan : UNDANG-UNDANG TENTANG CIPTA KERJA.
Pasal 80
Beberapa ketentuan dalam Undang-Undang Nomor 38 Tahun 2004 tentang Jalan (Lembaran Negara
Republik Indonesia Tahun 2004 Nomor 132) diubah sebagai berikut:
1. Pasal 16 dihapus.
2. Ketentuan Pasal 17 diubah sehingga berbunyi sebagai berikut:
Pasal 17
Jalan umum diatur oleh Pemerintah Pusat.
Pasal 81
Beberapa ketentuan dalam Undang-Undang Nomor 13 Tahun 2003 tentang Ketenagakerjaan (Lembaran
Negara Republik Indonesia Tahun 2003 Nomor 39) diubah sebagai berikut:
1. Ketentuan Pasal 13 diubah sehingga berbunyi sebagai berikut:
Pasal 13
(1) Pelatihan kerja diselenggarakan oleh lembaga pelatihan kerja.
2. Pasal 18 dihapus.
3. Pasal 19 dihapus.
Agar setiap orang mengetahuinya, memerintahkan pengundangan Undang-Undang ini.
Diundangkan di Jakarta pada tanggal 2 November 2020
"""


def test_each_amended_law_gets_its_own_instructions_and_sources() -> None:
    own = RegulationRef("Undang-Undang", "11", "2020")
    jalan, tenaga_kerja = read_amendments(OMNIBUS, own)
    assert jalan.target is not None and jalan.target.short == "UU 38/2004"
    assert tenaga_kerja.target is not None and tenaga_kerja.target.short == "UU 13/2003"
    assert [i.operation for i in jalan.instructions] == [Operation.DELETE, Operation.REPLACE]
    assert jalan.instructions[1].new_pasal[0].text == "Jalan umum diatur oleh Pemerintah Pusat."
    assert len(tenaga_kerja.instructions) == 3
    assert tenaga_kerja.instructions[0].source == "UU 11/2020 Pasal 81 angka 1"
    assert [p.number for p in tenaga_kerja.instructions[0].new_pasal] == ["13"]
