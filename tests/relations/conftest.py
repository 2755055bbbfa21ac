"""Generated regulations for the relation tests, chunked by the real pipeline chunker."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pytest

from ingestion.legal.relations import SectionText
from ingestion.models import Document, DocumentStatus
from ingestion.pipeline.base import Block
from ingestion.pipeline.chunk import chunk_document
from ingestion.relations.graph import refresh_document
from tests.search.helpers import add_chunk, make_document


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


class StoreRegulation(Protocol):
    def __call__(
        self,
        text: str,
        *,
        title: str,
        source_key: str | None = None,
        source_version: str = "1",
        source: dict[str, Any] | None = None,
        status: str = DocumentStatus.INDEXED,
    ) -> Document: ...


def store_regulation(
    text: str,
    *,
    title: str,
    source_key: str | None = None,
    source_version: str = "1",
    source: dict[str, Any] | None = None,
    status: str = DocumentStatus.INDEXED,
) -> Document:
    """What the pipeline's index step leaves behind (document, chunks), then its relation
    step. Chunks come from the real chunker; vectors from the hashed test embedder."""
    document = make_document(
        title, source_key=source_key, source_version=source_version, source=source, status=status
    )
    for section in chunk_sections(text):
        add_chunk(document, section.text, heading_path=section.path)
    refresh_document(document)
    document.refresh_from_db()
    return document


@pytest.fixture
def regulation() -> StoreRegulation:
    """Store a regulation as the pipeline would and run its relation step."""
    return store_regulation


def repealing(target: str, *, number: str = "9", year: str = "2024") -> str:
    """A Perda of Banjarnegara whose closing provisions repeal ``target``."""
    return Regulation(
        heading=f"PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR {number} TAHUN {year}",
        closing=[
            f"Pada saat Peraturan Daerah ini mulai berlaku, {target} dicabut dan dinyatakan"
            " tidak berlaku.",
            "Peraturan Daerah ini mulai berlaku pada tanggal diundangkan.",
        ],
    ).text()


def amending(target: str, *, number: str = "1", year: str = "2024") -> str:
    return Regulation(
        heading=f"PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR {number} TAHUN {year}",
        tentang=f"PERUBAHAN ATAS {target.upper()}",
    ).text()


def plain(number: str, year: str, tentang: str = "RETRIBUSI PASAR") -> str:
    return Regulation(
        heading=f"PERATURAN DAERAH KABUPATEN BANJARNEGARA\nNOMOR {number} TAHUN {year}",
        tentang=tentang,
    ).text()
