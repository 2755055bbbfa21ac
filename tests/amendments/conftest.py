"""Fixtures for the amendment tests: small regulations written the way the real ones are.

The texts follow the drafting standard (UU 12/2011, Lampiran II): an original with BAB and
Pasal headings on their own lines, and an amending law whose Pasal I opens with the
sentence naming its target and lists numbered instructions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from ingestion.legal.citation import RegulationRef
from tests.corpus import CORPUS

AMENDMENTS = CORPUS / "amendments"

UU_11_2008 = RegulationRef("Undang-Undang", "11", "2008")
UU_19_2016 = RegulationRef("Undang-Undang", "19", "2016")

BuildAmending = Callable[..., str]
BuildOriginal = Callable[[Sequence[tuple[str, str]]], str]


def amending_text(
    items: Sequence[str],
    *,
    target: str = "Undang-Undang Nomor 11 Tahun 2008 tentang Informasi dan Transaksi Elektronik",
    earlier: str = "",
    enacted: str = "25 November 2016",
    in_force: str = "pada tanggal diundangkan",
    own: str = "NOMOR 19 TAHUN 2016",
) -> str:
    """An amending law: heading, Pasal I with ``items`` numbered 1…n, Pasal II, closing."""
    history = f" sebagaimana telah diubah dengan {earlier}" if earlier else ""
    numbered = "\n".join(f"{n}. {item}" for n, item in enumerate(items, start=1))
    return (
        f"UNDANG-UNDANG REPUBLIK INDONESIA {own} TENTANG PERUBAHAN ATAS "
        "UNDANG-UNDANG NOMOR 11 TAHUN 2008\n"
        "DENGAN RAHMAT TUHAN YANG MAHA ESA\nMenimbang : a. bahwa perlu;\n"
        "MEMUTUSKAN:\nMenetapkan : UNDANG-UNDANG TENTANG PERUBAHAN.\n"
        "Pasal I\n"
        f"Beberapa ketentuan dalam {target} (Lembaran Negara Republik Indonesia Tahun 2008 "
        f"Nomor 58){history} diubah sebagai berikut:\n"
        f"{numbered}\n"
        "Pasal II\n"
        f"Undang-Undang ini mulai berlaku {in_force}.\n"
        "Agar setiap orang mengetahuinya, memerintahkan pengundangan Undang-Undang ini.\n"
        f"Disahkan di Jakarta pada tanggal 25 November 2016\n"
        f"Diundangkan di Jakarta pada tanggal {enacted}\n"
        "PENJELASAN ATAS UNDANG-UNDANG NOMOR 19 TAHUN 2016\nI. UMUM\nPasal 26 Cukup jelas.\n"
    )


def original_text(pasals: Sequence[tuple[str, str]]) -> str:
    """An original regulation: ``(number, body)`` Pasal under one BAB, then a Penjelasan."""
    body = "\n".join(f"Pasal {number}\n{text}" for number, text in pasals)
    return (
        "UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 11 TAHUN 2008\nMEMUTUSKAN:\n"
        "Menetapkan : UNDANG-UNDANG TENTANG INFORMASI.\n"
        f"BAB I KETENTUAN UMUM\n{body}\n"
        "Agar setiap orang mengetahuinya, memerintahkan pengundangan Undang-Undang ini.\n"
        "Diundangkan di Jakarta pada tanggal 21 April 2008\n"
        "PENJELASAN ATAS UNDANG-UNDANG NOMOR 11 TAHUN 2008\nPasal 1 Cukup jelas.\n"
    )


@pytest.fixture
def build_amending() -> BuildAmending:
    return amending_text


@pytest.fixture
def build_original() -> BuildOriginal:
    return original_text


@pytest.fixture
def corpus_amendments() -> Path:
    """The development chains; the test skips where the corpus is absent."""
    if not (AMENDMENTS / "README.md").is_file():
        pytest.skip("shared/corpus/amendments is not on this machine")
    return AMENDMENTS
