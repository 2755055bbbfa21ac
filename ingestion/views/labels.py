"""Indonesian names for pipeline stages and event outcomes shown to staff."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

STAGE_LABELS = {
    "queued": _("Dalam antrean"),
    "fetch": _("Mengambil berkas"),
    "fetched": _("Berkas diambil"),
    "parse": _("Membaca isi"),
    "parsed": _("Isi terbaca"),
    "ocr_pending": _("Menunggu OCR"),
    "ocr": _("OCR"),
    "ocr_done": _("OCR selesai"),
    "chunk": _("Memotong teks"),
    "chunked": _("Teks dipotong"),
    "embed": _("Membuat vektor"),
    "embedded": _("Vektor dibuat"),
    "index": _("Mengindeks"),
    "indexed": _("Terindeks"),
    "needs_review": _("Perlu ditinjau"),
    "skipped": _("Dilewati"),
    "failed": _("Gagal"),
    "done": _("Selesai"),
    "deferred": _("Ditunda (dokumen sedang dikunci pekerjaan lain)"),
}


def stage_label(key: str) -> str:
    return str(STAGE_LABELS.get(key, key or "—"))
