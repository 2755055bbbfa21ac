"""The development chains (``shared/corpus/amendments``) through the real pipeline."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from ingestion.models import PasalVersion
from ingestion.search.query import SearchHit
from ingestion.search.service import SearchQuery, search
from tests.corpus import CORPUS
from tests.relations.helpers import ingest_file
from tests.search.helpers import fresh_term_stats

CHAINS = CORPUS / "amendments"
TIPIKOR = ("uu_31_1999_tipikor.md", "uu_20_2001_perubahan_tipikor.md")
KEPABEANAN = ("uu_10_1995_kepabeanan.md", "uu_17_2006_perubahan_kepabeanan.md")
JALAN = ("uu_38_2004_jalan.md", "uu_2_2022_perubahan_kedua_jalan.md")
KUP = (
    "uu_6_1983_kup.md",
    "uu_9_1994_perubahan_kup.md",
    "uu_16_2000_perubahan_kedua_kup.md",
    "uu_28_2007_perubahan_ketiga_kup.md",
)


def corpus_text(name: str) -> str:
    path = CHAINS / name
    if not path.exists():
        pytest.skip("corpus absent")
    return path.read_text(encoding="utf-8")


def ingest(root: Path, name: str, text: str | None = None, *, version: str = "1") -> UUID:
    """One chain member (or a text standing in for it) through the whole pipeline;
    ``version`` > 1 is a new edition of the same source key."""
    data = (text if text is not None else corpus_text(name)).encode()
    stem = name.removesuffix(".md")
    if version == "1":
        return ingest_file(root, f"{stem}.md", data, title=stem.replace("_", " "), fmt="md")
    return _new_edition(root, f"{stem}.md", data, version)


def _new_edition(root: Path, name: str, data: bytes, version: str) -> UUID:
    from ingestion.pipeline.request import IngestRequest, Provenance
    from ingestion.pipeline.runner import ingest as run
    from tests.object_store import put_object

    key = put_object(root, f"docs/v{version}/{name}", data)
    result = run(
        IngestRequest(
            job=None,
            storage_key=key,
            format="md",
            parser_file_name=name,
            mime_type="text/markdown",
            title=name.removesuffix(".md").replace("_", " "),
            title_from_partner=True,
            source_type="JDIH",
            source_key=f"jdih:{name}",
            source_version=version,
            source_metadata={},
            provenance=Provenance(registry_id=name, collection_name="JDIH"),
        )
    )
    assert result.document_id is not None, result.error
    return result.document_id


def amending_tipikor(
    items: str, *, number: str = "5", year: str = "2003", penjelasan: str = ""
) -> str:
    """A made-up second amendment of UU 31/1999 whose Pasal I holds ``items``; with
    ``penjelasan``, the "Pasal demi Pasal" part of its PENJELASAN (under Pasal I)."""
    return _amending_body(items, number, year) + (
        _amending_penjelasan(penjelasan, number, year) if penjelasan else ""
    )


def _amending_penjelasan(items: str, number: str, year: str) -> str:
    return (
        f"PENJELASAN\nATAS\nUNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR {number} TAHUN {year}\n"
        "TENTANG\nPERUBAHAN KEDUA ATAS UNDANG-UNDANG NOMOR 31 TAHUN 1999 TENTANG"
        " PEMBERANTASAN TINDAK PIDANA KORUPSI\nI. UMUM\nPerubahan ini menyesuaikan rumusan"
        " delik.\nII. PASAL DEMI PASAL\nPasal I\n"
        f"{items}\nPasal II\nCukup jelas.\n"
    )


def _amending_body(items: str, number: str, year: str) -> str:
    return (
        f"UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR {number} TAHUN {year}\nTENTANG\n"
        "PERUBAHAN KEDUA ATAS UNDANG-UNDANG NOMOR 31 TAHUN 1999 TENTANG PEMBERANTASAN"
        " TINDAK PIDANA KORUPSI\nDENGAN RAHMAT TUHAN YANG MAHA ESA\n"
        "PRESIDEN REPUBLIK INDONESIA,\nMenimbang :\na. bahwa perlu diadakan perubahan;\n"
        "Mengingat :\n1. Undang-Undang Nomor 31 Tahun 1999 tentang Pemberantasan Tindak"
        " Pidana Korupsi;\nMEMUTUSKAN:\nMenetapkan : UNDANG-UNDANG TENTANG PERUBAHAN KEDUA"
        " ATAS UNDANG-UNDANG NOMOR 31 TAHUN 1999 TENTANG PEMBERANTASAN TINDAK PIDANA"
        " KORUPSI.\nPasal I\nBeberapa ketentuan dalam Undang-Undang Nomor 31 Tahun 1999"
        " tentang Pemberantasan Tindak Pidana Korupsi diubah sebagai berikut:\n"
        f"{items}\nPasal II\nUndang-Undang ini mulai berlaku pada tanggal diundangkan.\n"
        f"Disahkan di Jakarta\npada tanggal 1 Maret {year}\n"
        f"Diundangkan di Jakarta\npada tanggal 1 Maret {year}\n"
    )


def versions() -> set[tuple[str, int, str, str, str | None, str | None]]:
    """Every stored Pasal version, comparable across runs (no ids)."""
    return {
        (
            v.number,
            v.seq,
            v.state,
            " ".join(v.text.split()),
            str(v.valid_from) if v.valid_from else None,
            v.amending_document.citation if v.amending_document else None,
        )
        for v in PasalVersion.objects.select_related("amending_document")
    }


# A made-up UU 5/2003 that restates Pasal 5 (and 13) once more, in words of its own, and
# explains Pasal 5 in its PENJELASAN (ayat (1) in the body's own words, as real ones do).
RESTATED_AGAIN = (
    "1. Ketentuan Pasal 5 diubah sehingga berbunyi sebagai berikut:\n"
    "Pasal 5\n(1) Setiap orang yang menyuap pejabat publik dipidana dengan pidana penjara"
    " paling lama 7 (tujuh) tahun.\n(2) Pejabat publik yang menerima suap dipidana dengan"
    " pidana yang sama.\n"
    "2. Ketentuan Pasal 13 diubah sehingga berbunyi sebagai berikut:\n"
    "Pasal 13\nSetiap orang yang memberi hadiah kepada pejabat publik karena jabatannya"
    " dipidana dengan pidana penjara paling lama 3 (tiga) tahun.\n"
)
RESTATED_AGAIN_PENJELASAN = (
    "Angka 1\nPasal 5\nAyat (1)\nSetiap orang yang menyuap pejabat publik dipidana dengan"
    " pidana penjara paling lama 7 (tujuh) tahun: menyuap pejabat publik mencakup memberi"
    " dan menjanjikan.\nAyat (2)\nYang dimaksud dengan pejabat publik adalah pegawai negeri"
    " dan penyelenggara negara menurut peraturan perundang-undangan.\n"
    "Angka 2\nPasal 13\nCukup jelas.\n"
)


def search_fresh(text: str, **options: object) -> list[SearchHit]:
    """The first ten hits, with term statistics read afresh (the test just indexed)."""
    with fresh_term_stats():
        return search(SearchQuery(text=text, limit=10, **options)).results  # type: ignore[arg-type]
