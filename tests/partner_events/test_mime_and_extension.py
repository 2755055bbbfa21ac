"""mimeType must be supported and agree with the storage key's extension."""

from __future__ import annotations

import pytest

from partner_events.contract.validate import FORMATS
from tests.partner_events.helpers import accepted, event, rejected

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"


@pytest.mark.parametrize(
    ("key", "mime", "fmt"),
    [
        ("r/qanun.txt", "text/plain", "txt"),
        ("r/page.md", "text/markdown", "md"),
        ("r/page.html", "text/html", "html"),
        ("r/page.htm", "text/html", "html"),
        ("r/data.csv", "text/csv", "csv"),
        ("r/surat.docx", DOCX, "docx"),
        ("r/tabel.xlsx", XLSX, "xlsx"),
        ("r/slides.pptx", PPTX, "pptx"),
        ("r/perda.pdf", "application/pdf", "pdf"),
        ("r/scan.png", "image/png", "image"),
        ("r/scan.jpg", "image/jpeg", "image"),
        ("r/scan.jpeg", "image/jpeg", "image"),
        ("r/scan.tif", "image/tiff", "image"),
        ("r/scan.webp", "image/webp", "image"),
    ],
)
def test_each_supported_extension_resolves_its_format(key: str, mime: str, fmt: str) -> None:
    record = accepted(event(storageKey=key, mimeType=mime, collectionName="PPID")).normalized
    assert record is not None
    assert record.format == fmt
    assert record.parser_file_name == key.rsplit("/", 1)[1]


@pytest.mark.parametrize(
    "mime", ["APPLICATION/PDF", "Application/Pdf", "application/pdf; charset=binary"]
)
def test_mime_type_ignores_case_and_parameters_and_is_reported_as_sent(mime: str) -> None:
    record = accepted(event(mimeType=mime)).normalized
    assert record is not None
    assert record.mime_type == mime
    assert record.media_type == "application/pdf"


def test_text_mime_with_charset_agrees_with_a_txt_key() -> None:
    payload = event(storageKey="r/a.TXT", mimeType="text/plain; charset=utf-8")
    record = accepted(payload).normalized
    assert record is not None
    assert record.format == "txt"


@pytest.mark.parametrize("mime", ["application/zip", "video/mp4", "text/rtf", "pdf"])
def test_an_unsupported_mime_type_is_rejected(mime: str) -> None:
    assert "mimeType" in (rejected(event(mimeType=mime)).error or "")


@pytest.mark.parametrize(
    ("key", "mime"),
    [
        ("r/perda.pdf", "text/plain"),
        ("r/perda.docx", "application/pdf"),
        ("r/scan.png", "image/jpeg"),
        ("r/data.csv", XLSX),
        ("r/page.html", "text/markdown"),
    ],
)
def test_a_mime_type_disagreeing_with_the_extension_is_rejected(key: str, mime: str) -> None:
    error = rejected(event(storageKey=key, mimeType=mime)).error or ""
    assert "mimeType" in error
    assert "storageKey" in error


@pytest.mark.parametrize("key", ["r/a.zip", "r/a.exe", "r/a.rtf", "r/a.odt", "r/a.v2"])
def test_an_unsupported_non_empty_extension_is_rejected(key: str) -> None:
    assert "ekstensi storageKey" in (rejected(event(storageKey=key)).error or "")


@pytest.mark.parametrize(
    ("key", "mime"),
    [
        ("r/a.doc", "application/msword"),
        ("r/a.xls", "application/vnd.ms-excel"),
        ("r/a.ppt", "application/vnd.ms-powerpoint"),
        ("r/a.doc", DOCX),
        ("r/a", "application/msword"),
    ],
)
def test_legacy_binary_office_formats_are_not_supported(key: str, mime: str) -> None:
    assert "format lama" in (rejected(event(storageKey=key, mimeType=mime)).error or "")


def test_every_format_in_the_table_has_a_mime_type_and_a_derived_extension() -> None:
    assert {spec.format.value for spec in FORMATS} == {
        "txt", "md", "html", "csv", "docx", "xlsx", "pptx", "pdf", "image"
    }  # fmt: skip
    for spec in FORMATS:
        assert spec.file_types
        assert spec.derived_extension.startswith(".")
        assert all(ft.mime_types for ft in spec.file_types)
