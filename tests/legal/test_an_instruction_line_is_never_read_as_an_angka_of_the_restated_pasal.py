"""Issue 20: in an amending regulation's Pasal I each numbered instruction ("60. Ketentuan
Pasal 57 diubah …") ends the Pasal restated before it. It is never an angka of that Pasal,
so search never cites a unit that does not exist ("Pasal 56 huruf b angka 60")."""

from __future__ import annotations

from ingestion.pipeline.base import Block, ChunkDraft
from ingestion.pipeline.chunk import chunk_document
from ingestion.pipeline.parse import ParseLimits, parse
from tests.legal.helpers import corpus_file

AMENDING = """UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 17 TAHUN 2006
TENTANG PERUBAHAN ATAS UNDANG-UNDANG NOMOR 10 TAHUN 1995 TENTANG KEPABEANAN
MEMUTUSKAN:
Pasal I
Beberapa ketentuan dalam Undang-Undang Nomor 10 Tahun 1995 diubah sebagai berikut:
1. Ketentuan Pasal 56 diubah sehingga Pasal 56 berbunyi sebagai berikut:
Pasal 56
Berdasarkan perintah tertulis sebagaimana dimaksud dalam Pasal 54, pejabat bea dan cukai:
a. memberitahukan secara tertulis kepada importir mengenai adanya perintah penangguhan;
b. melaksanakan penangguhan pengeluaran barang impor atau ekspor yang bersangkutan.
2. Ketentuan Pasal 57 ayat (1) dan ayat (2) diubah sehingga Pasal 57 berbunyi sebagai berikut:
Pasal 57
(1) Penangguhan pengeluaran barang dilaksanakan untuk jangka waktu paling lama 10 hari kerja.
(2) Jangka waktu sebagaimana dimaksud pada ayat (1) dapat diperpanjang satu kali.
3. Pasal 58 dihapus.
4. Di antara Pasal 58 dan Pasal 59 disisipkan 1 (satu) pasal, yakni Pasal 58A sebagai berikut:
Pasal 58A
Pejabat bea dan cukai dapat:
1. memeriksa barang impor;
2. menahan barang ekspor.
5. Penjelasan Pasal 60 diubah sebagaimana tercantum dalam penjelasan.
Pasal II
Undang-Undang ini mulai berlaku pada tanggal diundangkan.
"""

# An omnibus law amends another law inside one of its own numbered Pasal.
OMNIBUS = """UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 11 TAHUN 2020
TENTANG CIPTA KERJA
Pasal 80
Undang-Undang ini mengatur kemudahan berusaha.
Pasal 81
Beberapa ketentuan dalam Undang-Undang Nomor 13 Tahun 2003 tentang Ketenagakerjaan diubah:
1. Ketentuan Pasal 13 diubah sehingga berbunyi sebagai berikut:
Pasal 13
(1) Pelatihan kerja diselenggarakan oleh lembaga pelatihan kerja pemerintah.
(2) Pelatihan kerja dapat diselenggarakan di tempat pelatihan.
2. Ketentuan Pasal 14 diubah sehingga berbunyi sebagai berikut:
Pasal 14
Lembaga pelatihan kerja swasta wajib memenuhi perizinan berusaha.
"""


def _chunks(text: str) -> list[ChunkDraft]:
    return chunk_document([Block(text)], budget_tokens=350, overlap_tokens=40)


def _labels(chunks: list[ChunkDraft]) -> set[str]:
    return {unit.label for chunk in chunks for unit in chunk.units}


def _text_of(chunks: list[ChunkDraft], heading: str) -> str:
    return "\n".join(c.text for c in chunks if c.heading_path_text == heading)


def test_no_restated_pasal_has_an_angka_made_from_the_next_instruction() -> None:
    labels = _labels(_chunks(AMENDING))
    assert {"Pasal 56 huruf b", "Pasal 57 ayat (2)", "Pasal 58A angka 2"} <= labels
    assert not [
        label
        for label in labels
        if label.startswith(("Pasal 56 ", "Pasal 57 ")) and "angka" in label
    ]
    assert "Pasal 58A angka 4" not in labels and "Pasal 58A angka 5" not in labels


def test_the_restated_pasal_ends_before_the_next_instruction() -> None:
    chunks = _chunks(AMENDING)
    pasal_56 = _text_of(chunks, "Pasal 56")
    assert pasal_56.endswith("ekspor yang bersangkutan.")
    assert "Ketentuan Pasal 57" not in pasal_56
    assert "Pasal 58 dihapus" not in _text_of(chunks, "Pasal 57")


def test_the_instructions_stay_together_where_the_first_one_stands() -> None:
    chunks = _chunks(AMENDING)
    instructions = _text_of(chunks, "Pembukaan")
    for item in (
        "1. Ketentuan Pasal 56",
        "2. Ketentuan Pasal 57",
        "3. Pasal 58 dihapus.",
        "4. Di antara Pasal 58",
        "5. Penjelasan Pasal 60",
    ):
        assert item in instructions


def test_an_omnibus_instruction_goes_back_to_the_pasal_that_holds_the_instructions() -> None:
    labels = _labels(_chunks(OMNIBUS))
    assert {"Pasal 81 angka 1", "Pasal 81 angka 2", "Pasal 13 ayat (2)"} <= labels
    assert not [label for label in labels if label.startswith("Pasal 13 ") and "angka" in label]


def test_no_unit_of_the_kepabeanan_amendment_is_made_from_an_instruction() -> None:
    path = corpus_file("amendments/uu_17_2006_perubahan_kepabeanan.md")
    parsed = parse(path, "md", ParseLimits())
    chunks = chunk_document(parsed.blocks, budget_tokens=350, overlap_tokens=40)
    labels = _labels(chunks)
    assert "Pasal 56 huruf b" in labels
    assert "Pasal 56 huruf b angka 60" not in labels
    assert not [label for label in labels if label.split()[-2:] == ["angka", "60"]]
