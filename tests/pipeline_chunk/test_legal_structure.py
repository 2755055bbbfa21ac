"""The legal grammar on synthetic regulations: one rule per test."""

from __future__ import annotations

from ingestion.pipeline.base import Block, ChunkDraft
from ingestion.pipeline.chunk import chunk_document

BUDGET = 120


def _chunks(text: str, budget: int = BUDGET, page: int = 1) -> list[ChunkDraft]:
    return chunk_document([Block(text, page=page)], budget_tokens=budget, overlap_tokens=10)


def _paths(chunks: list[ChunkDraft]) -> list[str]:
    return [c.heading_path_text for c in chunks]


def _sentence(n: int) -> str:
    return " ".join(["ketentuan"] * n) + "."


REGULATION = f"""QANUN ACEH NOMOR 1 TAHUN 2024
Menimbang : a. bahwa pelayanan publik perlu diatur;
Mengingat : 1. Undang-Undang Nomor 11 Tahun 2006;
MEMUTUSKAN:
BAB I
KETENTUAN UMUM
Pasal 1
Dalam Qanun ini yang dimaksud dengan:
1. Aceh adalah daerah provinsi.
2. Pemerintah Aceh adalah unsur penyelenggara pemerintahan.
BAB II
PELAYANAN
Bagian Kesatu
Asas
Paragraf 1
Umum
Pasal 2
Pelayanan berasaskan kepastian hukum sebagaimana dimaksud dalam
Pasal 1 angka 2 dan keterbukaan.
Pasal 3
(1) Penyelenggara wajib {_sentence(40)}
(2) Penyelenggara wajib menyusun standar pelayanan.
PENJELASAN
ATAS
QANUN ACEH NOMOR 1 TAHUN 2024
I. UMUM
Qanun ini disusun untuk pelayanan.
II. PASAL DEMI PASAL
Pasal 1
Cukup jelas.
Pasal 3
Ayat (1)
Yang dimaksud dengan penyelenggara adalah dinas.
"""


def test_the_preamble_is_its_own_chunk_under_pembukaan() -> None:
    chunks = _chunks(REGULATION)
    assert chunks[0].heading_path == ["Pembukaan"]
    assert "Menimbang" in chunks[0].text and "MEMUTUSKAN" in chunks[0].text
    assert "Pasal 1" not in chunks[0].text


def test_a_bab_keeps_its_numeral_and_its_title_from_the_next_line() -> None:
    paths = _paths(_chunks(REGULATION))
    assert "BAB I KETENTUAN UMUM › Pasal 1" in paths


def test_bagian_and_paragraf_titles_join_the_path() -> None:
    paths = _paths(_chunks(REGULATION))
    assert "BAB II PELAYANAN › Bagian Kesatu Asas › Paragraf 1 Umum › Pasal 2" in paths


def test_a_reference_to_a_pasal_mid_sentence_is_not_a_header() -> None:
    chunks = _chunks(REGULATION)
    pasal_2 = [c for c in chunks if c.heading_path[-1] == "Pasal 2"]
    assert len(pasal_2) == 1
    assert "Pasal 1 angka 2 dan keterbukaan" in pasal_2[0].text
    assert (
        sum(
            c.heading_path[-1] == "Pasal 1" and c.heading_path[0] == "BAB I KETENTUAN UMUM"
            for c in chunks
        )
        == 1
    )


def test_penjelasan_sections_link_back_to_their_pasal() -> None:
    paths = _paths(_chunks(REGULATION))
    assert "PENJELASAN › Pasal 1" in paths
    assert "PENJELASAN › Pasal 3" in paths
    assert "PENJELASAN › Umum" in paths


def test_a_long_pasal_splits_at_ayat_and_every_piece_keeps_the_pasal() -> None:
    ayat = "\n".join(f"({n}) Penyelenggara wajib {_sentence(50)}" for n in range(1, 5))
    chunks = _chunks(f"Pasal 1\nSatu.\nPasal 12\n{ayat}", budget=120)
    pieces = [c for c in chunks if "Pasal 12" in c.heading_path]
    assert [c.heading_path for c in pieces] == [
        ["Pasal 12"],
        ["Pasal 12", "ayat (2)"],
        ["Pasal 12", "ayat (3)"],
        ["Pasal 12", "ayat (4)"],
    ]
    for number, piece in enumerate(pieces, 1):
        assert f"({number}) Penyelenggara" in piece.text
        assert piece.token_count <= 120


def test_small_ayat_share_a_chunk_and_an_ayat_is_never_cut_when_it_fits() -> None:
    ayat = "\n".join(f"({n}) {_sentence(25)}" for n in range(1, 7))
    chunks = _chunks(f"Pasal 1\nSatu.\nPasal 2\n{ayat}", budget=120)
    pieces = [c for c in chunks if "Pasal 2" in c.heading_path]
    assert len(pieces) == 2
    for piece in pieces:
        assert piece.text.count("(") == 3  # three whole ayat per piece, none cut
    assert pieces[1].heading_path == ["Pasal 2", "ayat (4)"]


def test_an_ayat_larger_than_the_budget_is_split_and_keeps_its_ayat_label() -> None:
    long_ayat = " ".join(_sentence(20) for _ in range(12))
    chunks = _chunks(f"Pasal 1\nSatu.\nPasal 7\n(1) Singkat.\n(2) {long_ayat}", budget=100)
    pieces = [c for c in chunks if "Pasal 7" in c.heading_path]
    assert len(pieces) >= 3
    assert all(c.token_count <= 100 for c in pieces)
    assert all(p.heading_path == ["Pasal 7", "ayat (2)"] for p in pieces[1:])


def test_inline_headers_in_run_on_text_are_found() -> None:
    text = (
        "PEKERJAAN. BAB I KETENTUAN UMUM Pasal 1 Dalam PP ini. Pasal 2 (1) Pengusaha wajib "
        "mendaftar. (2) Program sebagaimana dimaksud pada ayat (1) berjalan. BAB II "
        "KEPESERTAAN Bagian Kesatu Kepesertaan Pasal 3 (1). Peserta terdiri atas pekerja."
    )
    paths = _paths(_chunks(text))
    assert paths[1:] == [
        "BAB I KETENTUAN UMUM › Pasal 1",
        "BAB I KETENTUAN UMUM › Pasal 2",
        "BAB II KEPESERTAAN › Bagian Kesatu Kepesertaan › Pasal 3",
    ]


def test_definitions_split_per_numbered_item_when_pasal_1_is_long() -> None:
    items = "\n".join(f"{n}. Istilah{n} adalah {_sentence(30)}" for n in range(1, 9))
    chunks = _chunks(f"Pasal 1\nDalam Qanun ini yang dimaksud dengan:\n{items}\nPasal 2\nDua.")
    pieces = [c for c in chunks if c.heading_path[0] == "Pasal 1"]
    assert len(pieces) > 1
    for piece in pieces[1:]:
        label = piece.heading_path[-1]
        assert label.startswith("angka ")
        assert piece.text.startswith(f"{label.split()[1]}. Istilah")


def test_chunks_carry_the_page_range_of_their_text() -> None:
    blocks = [
        Block("Pasal 1\nSatu.", page=3),
        Block("Pasal 2\n(1) Mulai di halaman empat", page=4),
        Block("dan berlanjut ke halaman lima.", page=5),
    ]
    chunks = chunk_document(blocks, budget_tokens=200, overlap_tokens=0)
    pasal_2 = next(c for c in chunks if c.heading_path == ["Pasal 2"])
    assert (pasal_2.page_from, pasal_2.page_to) == (4, 5)
