"""Document formats of the partner contract: MIME types, storage-key extensions, agreement.

``FORMATS`` is data so the partner docs page can be generated from it. The rules:

* ``mimeType`` is compared case-insensitively and without parameters (``; charset=utf-8``).
* A storage key whose basename has an extension must use a supported one, and the
  ``mimeType`` must be one of that extension's MIME types.
* An extensionless key is valid when the ``mimeType`` resolves the format; the parser file
  name then gets the format's derived extension (the contract's table, extended for txt, md
  and pptx).
* The legacy ``format`` hint, when sent, must name the same format as both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class DocumentFormat(StrEnum):
    TXT = "txt"
    MD = "md"
    HTML = "html"
    CSV = "csv"
    DOCX = "docx"
    XLSX = "xlsx"
    PPTX = "pptx"
    PDF = "pdf"
    IMAGE = "image"


@dataclass(frozen=True, slots=True)
class FileType:
    """One extension and the MIME types that agree with it."""

    extension: str  # lower-case, without the dot
    mime_types: tuple[str, ...]  # lower-case essences; the first is canonical


@dataclass(frozen=True, slots=True)
class FormatSpec:
    format: DocumentFormat
    file_types: tuple[FileType, ...]
    derived_extension: str  # appended to an extensionless storage key for the parser
    description: str  # Indonesian, for the docs page


_OOXML = "application/vnd.openxmlformats-officedocument"

# Images: the formats Pillow decodes reliably and OCR engines accept. GIF is left out on
# purpose (animated, palette-only scans are rare in government archives and OCR badly).
FORMATS: tuple[FormatSpec, ...] = (
    FormatSpec(
        DocumentFormat.TXT,
        (FileType("txt", ("text/plain",)),),
        ".txt",
        "Teks polos UTF-8.",
    ),
    FormatSpec(
        DocumentFormat.MD,
        (
            FileType("md", ("text/markdown", "text/x-markdown")),
            FileType("markdown", ("text/markdown", "text/x-markdown")),
        ),
        ".md",
        "Markdown.",
    ),
    FormatSpec(
        DocumentFormat.HTML,
        (
            FileType("html", ("text/html", "application/xhtml+xml")),
            FileType("htm", ("text/html", "application/xhtml+xml")),
        ),
        ".html",
        "Halaman HTML.",
    ),
    FormatSpec(
        DocumentFormat.CSV,
        (FileType("csv", ("text/csv", "application/csv")),),
        ".csv",
        "Tabel CSV.",
    ),
    FormatSpec(
        DocumentFormat.DOCX,
        (FileType("docx", (f"{_OOXML}.wordprocessingml.document",)),),
        ".docx",
        "Dokumen Word (OOXML). .doc lama tidak didukung.",
    ),
    FormatSpec(
        DocumentFormat.XLSX,
        (FileType("xlsx", (f"{_OOXML}.spreadsheetml.sheet",)),),
        ".xlsx",
        "Lembar kerja Excel (OOXML). .xls lama tidak didukung.",
    ),
    FormatSpec(
        DocumentFormat.PPTX,
        (FileType("pptx", (f"{_OOXML}.presentationml.presentation",)),),
        ".pptx",
        "Presentasi PowerPoint (OOXML). .ppt lama tidak didukung.",
    ),
    FormatSpec(
        DocumentFormat.PDF,
        (FileType("pdf", ("application/pdf",)),),
        ".pdf",
        "PDF, born-digital atau hasil pindai (OCR).",
    ),
    FormatSpec(
        DocumentFormat.IMAGE,
        (
            FileType("png", ("image/png",)),
            FileType("jpg", ("image/jpeg", "image/jpg")),
            FileType("jpeg", ("image/jpeg", "image/jpg")),
            FileType("tif", ("image/tiff",)),
            FileType("tiff", ("image/tiff",)),
            FileType("webp", ("image/webp",)),
            FileType("bmp", ("image/bmp", "image/x-ms-bmp")),
        ),
        ".png",
        "Gambar hasil pindai (PNG, JPEG, TIFF, WebP, BMP), diproses dengan OCR.",
    ),
)

# Legacy binary Office formats get a specific message: partners must convert them.
LEGACY_EXTENSIONS: dict[str, str] = {"doc": "docx", "xls": "xlsx", "ppt": "pptx"}
LEGACY_MIME_TYPES: dict[str, str] = {
    "application/msword": "docx",
    "application/vnd.ms-excel": "xlsx",
    "application/vnd.ms-powerpoint": "pptx",
}

SPEC_BY_FORMAT: dict[DocumentFormat, FormatSpec] = {spec.format: spec for spec in FORMATS}
FORMAT_BY_EXTENSION: dict[str, DocumentFormat] = {
    ft.extension: spec.format for spec in FORMATS for ft in spec.file_types
}
MIME_TYPES_BY_EXTENSION: dict[str, tuple[str, ...]] = {
    ft.extension: ft.mime_types for spec in FORMATS for ft in spec.file_types
}
FORMAT_BY_MIME: dict[str, DocumentFormat] = {
    mime: spec.format for spec in FORMATS for ft in spec.file_types for mime in ft.mime_types
}

# An extension is a short run of ASCII letters/digits after the basename's last dot. Other
# dotted tails ("Perda No. 12 Tahun 2026") are part of the name, so such keys are
# extensionless rather than "unsupported extension".
_EXTENSION_RE = re.compile(r"^[A-Za-z0-9]{1,10}$")


def mime_essence(mime_type: str) -> str:
    """``'Application/PDF; charset=binary'`` → ``'application/pdf'``."""
    return mime_type.split(";", 1)[0].strip().lower()


def key_basename(storage_key: str) -> str:
    return storage_key.rsplit("/", 1)[-1]


def split_extension(basename: str) -> tuple[str, str]:
    """Return ``(stem, extension)``; the extension is lower-case, ``""`` when there is none.

    A leading dot (``.env``) is part of the name, not an extension.
    """
    stem, dot, tail = basename.rpartition(".")
    if not dot or not stem or not _EXTENSION_RE.fullmatch(tail):
        return basename, ""
    return stem, tail.lower()


class FormatError(ValueError):
    """The MIME type, storage-key extension and legacy format hint do not resolve."""


@dataclass(frozen=True, slots=True)
class ResolvedFormat:
    format: DocumentFormat
    media_type: str  # the MIME essence, lower-case, without parameters
    extension: str  # the storage key's own extension, "" when extensionless
    parser_file_name: str


def supported_formats_text() -> str:
    return ", ".join(spec.format.value for spec in FORMATS)


def _format_from_mime(media_type: str) -> DocumentFormat:
    if media_type in LEGACY_MIME_TYPES:
        raise FormatError(
            f"mimeType '{media_type}' adalah format lama yang tidak didukung; "
            f"konversi ke {LEGACY_MIME_TYPES[media_type]}"
        )
    fmt = FORMAT_BY_MIME.get(media_type)
    if fmt is None:
        raise FormatError(f"mimeType '{media_type}' tidak didukung")
    return fmt


def _check_extension(extension: str, media_type: str) -> DocumentFormat:
    if extension in LEGACY_EXTENSIONS:
        raise FormatError(
            f"ekstensi storageKey '.{extension}' adalah format lama yang tidak didukung; "
            f"konversi ke .{LEGACY_EXTENSIONS[extension]}"
        )
    if extension not in FORMAT_BY_EXTENSION:
        raise FormatError(f"ekstensi storageKey '.{extension}' tidak didukung")
    if media_type not in MIME_TYPES_BY_EXTENSION[extension]:
        raise FormatError(
            f"mimeType '{media_type}' tidak sesuai dengan ekstensi storageKey '.{extension}'"
        )
    return FORMAT_BY_EXTENSION[extension]


def _check_legacy_format(legacy_format: str | None, resolved: DocumentFormat) -> None:
    if legacy_format is None:
        return
    try:
        hint = DocumentFormat(legacy_format)
    except ValueError:
        raise FormatError(
            f"format '{legacy_format}' tidak dikenal; gunakan salah satu dari: "
            f"{supported_formats_text()}"
        ) from None
    if hint is not resolved:
        raise FormatError(
            f"format '{legacy_format}' tidak sesuai dengan mimeType dan ekstensi storageKey "
            f"(terbaca sebagai {resolved.value})"
        )


def resolve_format(storage_key: str, mime_type: str, legacy_format: str | None) -> ResolvedFormat:
    """Resolve the document format or raise :class:`FormatError` (Indonesian message).

    ``legacy_format`` is the optional ``format`` hint, already known to be a non-blank string
    or ``None``.
    """
    media_type = mime_essence(mime_type)
    mime_format = _format_from_mime(media_type)
    basename = key_basename(storage_key)
    _stem, extension = split_extension(basename)
    if extension:
        resolved = _check_extension(extension, media_type)
        parser_file_name = basename
    else:
        resolved = mime_format
        parser_file_name = basename + SPEC_BY_FORMAT[resolved].derived_extension
    _check_legacy_format(legacy_format, resolved)
    return ResolvedFormat(resolved, media_type, extension, parser_file_name)
