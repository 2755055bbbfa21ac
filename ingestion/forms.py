"""Forms of the admin UI. Labels and errors are Indonesian (gettext msgids)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from ingestion.formats import FORMAT_BY_EXTENSION, LEGACY_EXTENSIONS
from ingestion.models import DocumentStatus, SourceType

MAX_FILES_PER_UPLOAD = 50


def supported_extensions() -> list[str]:
    return sorted(FORMAT_BY_EXTENSION)


def max_upload_bytes() -> int:
    return int(settings.INGEST_MAX_BYTES)


def file_problem(name: str, size: int | None) -> str | None:
    """Why a file cannot be accepted, in words a person acts on; None when it is fine."""
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if extension in LEGACY_EXTENSIONS:
        return str(
            _("Format .%(old)s lama tidak didukung; simpan ulang sebagai .%(new)s.")
            % {"old": extension, "new": LEGACY_EXTENSIONS[extension]}
        )
    if extension not in FORMAT_BY_EXTENSION:
        return str(
            _("Jenis berkas tidak didukung (%(ext)s). Format yang didukung: %(list)s.")
            % {
                "ext": f".{extension}" if extension else _("tanpa ekstensi"),
                "list": ", ".join(supported_extensions()),
            }
        )
    if size is not None and size > max_upload_bytes():
        return str(
            _("Berkas terlalu besar (%(size)s); batas maksimum %(max)s.")
            % {"size": filesizeformat(size), "max": filesizeformat(max_upload_bytes())}
        )
    if size == 0:
        return str(_("Berkas kosong (0 byte)."))
    return None


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Django's documented pattern for ``<input type=file multiple>``."""

    widget = MultipleFileInput

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        # Per-file problems (empty, too big, wrong type) are reported per file by the view,
        # not as one form error that would hide which file was at fault.
        items = data if isinstance(data, list | tuple) else [data]
        files = [item for item in items if item]
        if not files and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")
        return files


class UploadForm(forms.Form):
    # The field shadows BaseForm.files only in the type checker: Django's form metaclass moves
    # declared fields into base_fields, so request.FILES stays reachable as self.files.
    files = MultipleFileField(  # type: ignore[assignment]
        label=_("Berkas"),
        error_messages={"required": _("Pilih setidaknya satu berkas.")},
    )
    source_type = forms.ChoiceField(
        label=_("Jenis sumber / koleksi"), choices=SourceType.choices, initial=SourceType.UPLOAD
    )
    judul = forms.CharField(label=_("Judul"), max_length=500, required=False)
    nomor = forms.CharField(label=_("Nomor"), max_length=100, required=False)
    tahun = forms.IntegerField(label=_("Tahun"), min_value=1900, max_value=2100, required=False)
    jenis = forms.CharField(label=_("Jenis dokumen"), max_length=100, required=False)
    wilayah = forms.CharField(label=_("Wilayah"), max_length=100, required=False)

    def clean_files(self) -> list[UploadedFile]:
        files: Sequence[UploadedFile] = self.cleaned_data.get("files") or []
        if len(files) > MAX_FILES_PER_UPLOAD:
            raise forms.ValidationError(
                _("Paling banyak %(n)s berkas sekali unggah.") % {"n": MAX_FILES_PER_UPLOAD}
            )
        return list(files)

    def metadata(self) -> dict[str, str]:
        """The optional fields that were filled in, as strings (the contract's shape)."""
        keys = ("judul", "nomor", "tahun", "jenis", "wilayah")
        return {
            key: str(self.cleaned_data[key]).strip()
            for key in keys
            if self.cleaned_data.get(key) not in (None, "")
        }


def _blank(choices: Sequence[tuple[str, Any]], label: Any) -> list[tuple[str, Any]]:
    return [("", label), *choices]


class DocumentFilterForm(forms.Form):
    q = forms.CharField(label=_("Cari judul"), max_length=200, required=False)
    status = forms.ChoiceField(
        label=_("Status"),
        choices=_blank(DocumentStatus.choices, _("Semua status")),
        required=False,
    )
    source_type = forms.ChoiceField(
        label=_("Jenis sumber"),
        choices=_blank(SourceType.choices, _("Semua sumber")),
        required=False,
    )
    tahun = forms.IntegerField(label=_("Tahun"), min_value=1900, max_value=2100, required=False)


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Kata kunci"), max_length=500, required=False)
    source_type = forms.ChoiceField(
        label=_("Jenis sumber"),
        choices=_blank(SourceType.choices, _("Semua sumber")),
        required=False,
    )
    tahun = forms.CharField(label=_("Tahun"), max_length=10, required=False)
    wilayah = forms.CharField(label=_("Wilayah"), max_length=100, required=False)
    jenis = forms.CharField(label=_("Jenis dokumen"), max_length=100, required=False)
    include_repealed = forms.BooleanField(label=_("Tampilkan yang dicabut"), required=False)


class ChunkTextForm(forms.Form):
    text = forms.CharField(
        label=_("Teks"),
        widget=forms.Textarea,
        strip=True,
        error_messages={"required": _("Teks potongan tidak boleh kosong.")},
    )
