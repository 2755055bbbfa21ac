"""DOCX, XLSX and PPTX written by their own libraries come back as ordered blocks."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import docx
import openpyxl
from pptx import Presentation

from ingestion.pipeline.base import BlockKind
from ingestion.pipeline.parse import ParseLimits, parse

LIMITS = ParseLimits()


def test_docx_headings_keep_their_levels_and_tables_keep_their_rows(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("Qanun Aceh", level=1)
    document.add_heading("Bagian Umum", level=2)
    document.add_paragraph("Paragraf pertama tentang pelayanan publik.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Nama", "Jabatan"
    table.cell(1, 0).text, table.cell(1, 1).text = "Teuku Umar", "Kepala Dinas"
    document.add_page_break()
    document.add_paragraph("Setelah pemisah halaman.")
    path = tmp_path / "qanun.bin"  # the name carries no extension: dispatch is by format
    document.save(str(path))

    parsed = parse(path, "docx", LIMITS)

    kinds = [(b.kind, b.level, b.text) for b in parsed.blocks[:3]]
    assert kinds == [
        (BlockKind.HEADING, 1, "Qanun Aceh"),
        (BlockKind.HEADING, 2, "Bagian Umum"),
        (BlockKind.PARAGRAPH, 0, "Paragraf pertama tentang pelayanan publik."),
    ]
    tables = [b for b in parsed.blocks if b.kind == BlockKind.TABLE]
    assert tables[0].rows == [["Nama", "Jabatan"], ["Teuku Umar", "Kepala Dinas"]]
    assert parsed.blocks[-1].text == "Setelah pemisah halaman."
    assert parsed.blocks[-1].page == 2


def test_xlsx_reads_every_sheet_as_a_table_under_its_name(tmp_path: Path) -> None:
    workbook = openpyxl.Workbook()
    first = workbook.active
    first.title = "Anggaran"
    first.append(["Kabupaten", "Realisasi", "Tanggal"])
    first.append(["Aceh Besar", 1250.0, dt.datetime(2024, 3, 1)])
    second = workbook.create_sheet("Penduduk")
    second.append(["Kota", "Jumlah"])
    second.append(["Banda Aceh", 252899])
    path = tmp_path / "data.xlsx"
    workbook.save(path)

    parsed = parse(path, "xlsx", LIMITS)

    assert parsed.page_count == 2
    headings = [b.text for b in parsed.blocks if b.kind == BlockKind.HEADING]
    assert headings == ["Anggaran", "Penduduk"]
    tables = [b for b in parsed.blocks if b.kind == BlockKind.TABLE]
    assert tables[0].rows == [
        ["Kabupaten", "Realisasi", "Tanggal"],
        ["Aceh Besar", "1250", "2024-03-01"],
    ]
    assert tables[1].page == 2


def test_pptx_slides_become_pages_with_titles_text_and_notes(tmp_path: Path) -> None:
    presentation = Presentation()
    for number in (1, 2):
        slide = presentation.slides.add_slide(presentation.slide_layouts[1])
        slide.shapes.title.text = f"Judul slide {number}"
        slide.placeholders[1].text = f"Isi slide {number}"
        slide.notes_slide.notes_text_frame.text = f"Catatan pembicara {number}"
    path = tmp_path / "paparan.pptx"
    presentation.save(str(path))

    parsed = parse(path, "pptx", LIMITS)

    assert parsed.page_count == 2
    second = [b for b in parsed.blocks if b.page == 2]
    assert second[0].kind == BlockKind.HEADING and second[0].text == "Judul slide 2"
    assert [b.text for b in second[1:]] == ["Isi slide 2", "Catatan: Catatan pembicara 2"]
