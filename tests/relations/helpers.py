"""Generated regulations for the relation tests, chunked by the real pipeline chunker, and
stored as the pipeline's index step leaves them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from uuid import UUID

from ingestion.legal.relations import SectionText
from ingestion.legal.store import write_units
from ingestion.models import Document, DocumentStatus
from ingestion.pipeline.base import Block, ChunkDraft
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


def chunk_drafts(text: str) -> list[ChunkDraft]:
    return chunk_document([Block(text)], budget_tokens=350, overlap_tokens=40)


def chunk_sections(text: str) -> list[SectionText]:
    return [SectionText(d.heading_path_text, d.text, d.page_from) for d in chunk_drafts(text)]


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
    """What the pipeline's index step leaves behind (document, chunks, legal units), then
    its relation step. Chunks come from the real chunker; vectors from the hashed embedder."""
    document = make_document(
        title, source_key=source_key, source_version=source_version, source=source, status=status
    )
    drafts = chunk_drafts(text)
    chunks = [add_chunk(document, d.text, heading_path=d.heading_path_text) for d in drafts]
    write_units(document, chunks, [d.units for d in drafts])
    refresh_document(document)
    document.refresh_from_db()
    return document


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


def ingest_file(root: Path, name: str, data: bytes, *, title: str, fmt: str = "txt") -> UUID:
    """One document through the whole pipeline (fetch → … → index → relations)."""
    from ingestion.pipeline.request import IngestRequest, Provenance
    from ingestion.pipeline.runner import ingest
    from tests.object_store import put_object

    key = put_object(root, f"docs/{name}", data)
    request = IngestRequest(
        job=None,
        storage_key=key,
        format=fmt,
        parser_file_name=name,
        mime_type="application/pdf" if fmt == "pdf" else "text/plain",
        title=title,
        title_from_partner=True,
        source_type="JDIH",
        source_key=f"jdih:{name}",
        source_version="1",
        source_metadata={},
        provenance=Provenance(registry_id=name, collection_name="JDIH"),
    )
    result = ingest(request)
    assert result.document_id is not None, result.error
    return result.document_id
