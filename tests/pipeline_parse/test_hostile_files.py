"""Corrupt, encrypted and hostile files end as PermanentError with an Indonesian reason."""

from __future__ import annotations

import os
from pathlib import Path

import pymupdf
import pytest

from ingestion.errors import PermanentError
from ingestion.pipeline.parse import ParseLimits, parse
from tests.pipeline_parse.helpers import PARAGRAPH, png_header, text_page, write, zip_bomb

LIMITS = ParseLimits()


def _reason(path: Path, fmt: str, limits: ParseLimits = LIMITS) -> str:
    with pytest.raises(PermanentError) as caught:
        parse(path, fmt, limits)
    assert caught.value.permanent is True
    return caught.value.reason


@pytest.mark.parametrize(
    ("fmt", "member"),
    [("docx", "word/document.xml"), ("xlsx", "xl/workbook.xml"), ("pptx", "ppt/presentation.xml")],
)
def test_an_office_zip_bomb_is_refused_by_its_total_size(
    tmp_path: Path, fmt: str, member: str
) -> None:
    path = zip_bomb(tmp_path / f"bomb.{fmt}", member, 3 * 1024 * 1024)
    small_cap = ParseLimits(max_uncompressed_bytes=1024 * 1024)
    assert "terlalu besar setelah didekompresi" in _reason(path, fmt, small_cap)


def test_an_office_member_with_an_absurd_compression_ratio_is_a_zip_bomb(tmp_path: Path) -> None:
    path = zip_bomb(tmp_path / "bomb.docx", "word/document.xml", 8 * 1024 * 1024)
    assert "zip bomb" in _reason(path, "docx")


def test_an_image_whose_header_claims_too_many_pixels_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    path.write_bytes(png_header(12_000, 10_000))
    assert "Gambar terlalu besar" in _reason(path, "image")


def test_a_decompression_bomb_beyond_pillows_own_guard_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header(100_000, 100_000))
    assert "terlalu besar" in _reason(path, "image")


def test_a_pdf_with_more_pages_than_allowed_is_refused(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(6):
        text_page(doc, PARAGRAPH)
    path = write(doc, tmp_path / "long.pdf")
    assert "terlalu banyak halaman (6 > 5)" in _reason(path, "pdf", ParseLimits(max_pages=5))


def test_an_encrypted_pdf_says_it_is_password_protected(tmp_path: Path) -> None:
    doc = pymupdf.open()
    text_page(doc, PARAGRAPH)
    path = write(
        doc,
        tmp_path / "locked.pdf",
        encryption=pymupdf.PDF_ENCRYPT_AES_256,  # type: ignore[attr-defined]
        user_pw="rahasia",
        owner_pw="pemilik",
    )
    assert _reason(path, "pdf") == "PDF terenkripsi / dilindungi kata sandi"


def test_a_truncated_pdf_is_reported_as_unreadable(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(3):
        text_page(doc, PARAGRAPH)
    data = doc.tobytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[: int(len(data) * 0.3)])
    assert _reason(path, "pdf").startswith("PDF rusak / tidak dapat dibaca")


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("pdf", "PDF rusak / tidak dapat dibaca"),
        ("docx", "Berkas DOCX rusak"),
        ("xlsx", "Berkas XLSX rusak"),
        ("pptx", "Berkas PPTX rusak"),
        ("image", "Gambar rusak / tidak dapat dibaca"),
    ],
)
def test_random_bytes_are_refused_in_every_binary_format(
    tmp_path: Path, fmt: str, expected: str
) -> None:
    path = tmp_path / "noise.bin"
    path.write_bytes(os.urandom(4096))
    assert _reason(path, fmt).startswith(expected)


def test_a_zip_that_is_not_an_office_file_is_a_corrupt_docx(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "fake.docx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("hello.txt", "halo")
    assert _reason(path, "docx") == "Berkas DOCX rusak"


def test_an_ole_container_is_reported_as_encrypted_or_legacy(tmp_path: Path) -> None:
    path = tmp_path / "locked.docx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 1024)
    assert "terenkripsi" in _reason(path, "docx")


def test_an_unknown_format_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "x.exe"
    path.write_bytes(b"MZ")
    assert "tidak didukung" in _reason(path, "exe")
