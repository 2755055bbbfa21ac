"""pasal_texts splits the body into Pasal with their Bab, past references and catchwords."""

from __future__ import annotations

from ingestion.legal.amendments.pasal import pasal_texts
from ingestion.legal.amendments.text import strip_catchwords

TEXT = """UNDANG-UNDANG NOMOR 1 TAHUN 2000
Mengingat : Pasal 5 ayat (1) Undang-Undang Dasar;
MEMUTUSKAN:
Menetapkan : UNDANG-UNDANG TENTANG CONTOH.
BAB I KETENTUAN UMUM
Pasal 1
Yang dimaksud dengan contoh adalah sebagaimana dimaksud dalam
Pasal 3 ayat (2) dan hal lain. Pasal 2...
Pasal 2
(1) Setiap orang sebagaimana dimaksud dalam Pasal 1 wajib.
(2) Bagi...
(2) Bagi orang lain berlaku Pasal 1.
BAB II PENUTUP
Bagian Kesatu Umum
Pasal 3
Undang-Undang ini mulai berlaku pada tanggal diundangkan.
Agar setiap orang mengetahuinya, memerintahkan pengundangan.
PENJELASAN ATAS UNDANG-UNDANG NOMOR 1 TAHUN 2000
Pasal 1
Cukup jelas.
"""


def test_the_pasal_come_in_order_with_their_bab() -> None:
    pasals = pasal_texts(TEXT)
    assert [(p.number, p.bab, p.bagian) for p in pasals] == [
        ("1", "I", None),
        ("2", "I", None),
        ("3", "II", "Kesatu"),
    ]
    assert (
        pasals[1].text == "(1) Setiap orang sebagaimana dimaksud dalam Pasal 1 wajib.\n"
        "(2) Bagi orang lain berlaku Pasal 1."
    )
    assert pasals[2].text == "Undang-Undang ini mulai berlaku pada tanggal diundangkan."


def test_a_catchword_repeated_on_the_next_page_is_dropped() -> None:
    assert strip_catchwords("akhir. Pasal 10...\nPasal 10\nIsi") == "akhir.\nPasal 10\nIsi"
    assert strip_catchwords("lalu (2) Bagi…\n(2) Bagi orang") == "lalu\n(2) Bagi orang"
    assert strip_catchwords("dan seterusnya...") == "dan seterusnya..."
