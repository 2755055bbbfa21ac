"""Generated regulations for the relation tests, chunked by the real pipeline chunker."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest

from ingestion.legal.relations import SectionText
from ingestion.pipeline.base import Block
from ingestion.pipeline.chunk import chunk_document


@dataclass
class Regulation:
    """The parts of a regulation as printed; ``text()`` lays them out like a gazette."""

    heading: str = "PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR 5 TAHUN 2024"
    tentang: str = "RETRIBUSI PASAR"
    menimbang: Sequence[str] = ("bahwa pasar perlu ditata",)
    mengingat: Sequence[str] = ("Undang-Undang Nomor 23 Tahun 2014 tentang Pemerintahan Daerah",)
    menetapkan: str = "PERATURAN DAERAH TENTANG RETRIBUSI PASAR."
    pasals: Sequence[str] = field(
        default_factory=lambda: [
            "Dalam Peraturan Daerah ini yang dimaksud dengan pasar adalah tempat jual beli.",
            "Retribusi dipungut atas pelayanan pasar.",
        ]
    )
    closing: Sequence[str] = ("Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.",)
    closing_bab: bool = True  # False: a short regulation without any BAB

    def text(self) -> str:
        lines = [self.heading, "TENTANG", self.tentang, "DENGAN RAHMAT TUHAN YANG MAHA ESA"]
        lines.append("BUPATI BANJARNEGARA,")
        lines += ["Menimbang :", *(f"{chr(97 + i)}. {t};" for i, t in enumerate(self.menimbang))]
        lines += ["Mengingat :", *(f"{i + 1}. {t};" for i, t in enumerate(self.mengingat))]
        lines += ["MEMUTUSKAN:", f"Menetapkan : {self.menetapkan}"]
        if self.closing_bab:
            lines += ["BAB I", "KETENTUAN UMUM"]
        number = 0
        for body in self.pasals:
            number += 1
            lines += [f"Pasal {number}", body]
        if self.closing_bab:
            lines += ["BAB II", "KETENTUAN PENUTUP"]
        for body in self.closing:
            number += 1
            lines += [f"Pasal {number}", body]
        lines += ["Ditetapkan di Banjarnegara", "pada tanggal 2 Januari 2024"]
        return "\n".join(lines) + "\n"


def chunk_sections(text: str) -> list[SectionText]:
    drafts = chunk_document([Block(text)], budget_tokens=350, overlap_tokens=40)
    return [SectionText(d.heading_path_text, d.text, d.page_from) for d in drafts]


@pytest.fixture
def chunked() -> Callable[[str], list[SectionText]]:
    """Text → the sections the pipeline stores for it."""
    return chunk_sections
