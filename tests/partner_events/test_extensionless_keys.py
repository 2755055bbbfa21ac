"""An extensionless key is valid when mimeType resolves the format; the parser gets a name."""

from __future__ import annotations

import pytest

from tests.partner_events.helpers import accepted, event, rejected

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"


@pytest.mark.parametrize(
    ("mime", "fmt", "suffix"),
    [
        ("application/pdf", "pdf", ".pdf"),
        (DOCX, "docx", ".docx"),
        (XLSX, "xlsx", ".xlsx"),
        ("text/csv", "csv", ".csv"),
        ("text/html", "html", ".html"),
        ("image/png", "image", ".png"),
        ("image/jpeg", "image", ".png"),
        ("text/plain", "txt", ".txt"),
        ("text/markdown", "md", ".md"),
        (PPTX, "pptx", ".pptx"),
    ],
)
def test_the_format_hint_forces_the_parser_extension(mime: str, fmt: str, suffix: str) -> None:
    for hint in (None, fmt):
        payload = event(storageKey="obs/2026/berkas-001", mimeType=mime, format=hint)
        record = accepted(payload).normalized
        assert record is not None
        assert record.format == fmt
        assert record.parser_file_name == "berkas-001" + suffix
        assert record.storage_key == "obs/2026/berkas-001"


def test_a_dotted_name_that_is_not_an_extension_counts_as_extensionless() -> None:
    payload = event(storageKey="jdih/Perda No. 12 Tahun 2026", mimeType="application/pdf")
    record = accepted(payload).normalized
    assert record is not None
    assert record.parser_file_name == "Perda No. 12 Tahun 2026.pdf"


def test_a_hidden_file_name_is_not_an_extension() -> None:
    record = accepted(event(storageKey="jdih/.pdf")).normalized
    assert record is not None
    assert record.parser_file_name == ".pdf.pdf"


def test_an_extensionless_key_with_an_unsupported_mime_type_is_rejected() -> None:
    assert "mimeType" in (rejected(event(storageKey="a/b", mimeType="application/zip")).error or "")
