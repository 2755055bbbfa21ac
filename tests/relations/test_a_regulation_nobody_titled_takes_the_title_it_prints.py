"""A regulation uploaded without a title (it carries its file's name) takes the title its
heading prints; a title the uploader or partner gave is kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingestion.models import Document
from ingestion.pipeline.request import IngestRequest, Provenance
from ingestion.pipeline.runner import ingest
from tests.object_store import put_object

pytestmark = pytest.mark.django_db

ITE = """UNDANG-UNDANG REPUBLIK INDONESIA
NOMOR 11 TAHUN 2008
TENTANG
INFORMASI DAN TRANSAKSI ELEKTRONIK
DENGAN RAHMAT TUHAN YANG MAHA ESA
PRESIDEN REPUBLIK INDONESIA,
Menimbang : a. bahwa pembangunan nasional adalah suatu proses yang berkelanjutan;
MEMUTUSKAN:
Pasal 1
Dalam Undang-Undang ini yang dimaksud dengan Informasi Elektronik adalah data elektronik.
Pasal 2
Undang-Undang ini berlaku untuk setiap Orang yang melakukan perbuatan hukum.
"""


def _upload(root: Path, title: str, *, given: bool) -> Document:
    key = put_object(root, "docs/uu_11_2008_ite.txt", ITE.encode())
    result = ingest(
        IngestRequest(
            job=None,
            storage_key=key,
            format="txt",
            parser_file_name="uu_11_2008_ite.txt",
            mime_type="text/plain",
            title=title,
            title_from_partner=given,
            source_type="JDIH",
            source_key="jdih:uu_11_2008_ite",
            source_version="1",
            source_metadata={},
            provenance=Provenance(registry_id="ite", collection_name="JDIH"),
        )
    )
    assert result.document_id is not None, result.error
    return Document.objects.get(pk=result.document_id)


def test_an_untitled_upload_takes_its_printed_title(store_dir: Path) -> None:
    document = _upload(store_dir, "uu_11_2008_ite", given=False)
    assert document.title == (
        "UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 11 TAHUN 2008 TENTANG INFORMASI DAN "
        "TRANSAKSI ELEKTRONIK"
    )
    assert document.citation == "UU 11/2008"


def test_a_given_title_is_kept(store_dir: Path) -> None:
    document = _upload(store_dir, "UU ITE", given=True)
    assert document.title == "UU ITE"
