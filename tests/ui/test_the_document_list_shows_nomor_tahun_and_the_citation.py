"""The documents list shows a regulation's Nomor / Tahun and its short citation whenever
they are known: from sourceMetadata, else from the regulation's own heading (an upload
without metadata); "—" only when nothing names it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.object_store import file_object_store
from tests.relations.helpers import Regulation, ingest_file
from tests.ui.helpers import make_document

pytestmark = pytest.mark.django_db

UU = Regulation(
    heading="UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 11 TAHUN 2008",
    tentang="INFORMASI DAN TRANSAKSI ELEKTRONIK",
    menetapkan="UNDANG-UNDANG TENTANG INFORMASI DAN TRANSAKSI ELEKTRONIK.",
).text()


def _cell(body: str, document_id: object) -> str:
    row = re.search(rf'<tr id="doc-{document_id}".*?</tr>', body, re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(0), re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", cells[2]).split())


def test_an_uploaded_uu_without_metadata_shows_what_its_heading_says(
    admin_client: Client, tmp_path: Path, settings: Any
) -> None:
    with file_object_store(tmp_path, settings, max_retries=2) as root:
        document_id = ingest_file(root, "arsip.txt", UU.encode(), title="arsip.txt")
    body = admin_client.get("/documents/").content.decode()
    assert _cell(body, document_id) == "11 / 2008 UU 11/2008"


def test_source_metadata_is_shown_with_its_citation(admin_client: Client) -> None:
    document = make_document(citation="Qanun Aceh 3/2026")
    body = admin_client.get("/documents/").content.decode()
    assert _cell(body, document.pk) == "3 / 2026 Qanun Aceh 3/2026"


def test_a_document_that_names_no_regulation_shows_a_dash(admin_client: Client) -> None:
    document = make_document(title="Laporan PPID", metadata={"source_key": "p", "source": {}})
    body = admin_client.get("/documents/").content.decode()
    assert _cell(body, document.pk) == "—"


def test_the_year_filter_finds_a_year_read_from_the_heading(
    admin_client: Client, tmp_path: Path, settings: Any
) -> None:
    with file_object_store(tmp_path, settings, max_retries=2) as root:
        ingest_file(root, "arsip.txt", UU.encode(), title="arsip.txt")
    assert "arsip.txt" in admin_client.get("/documents/?tahun=2008").content.decode()
    assert "arsip.txt" not in admin_client.get("/documents/?tahun=2009").content.decode()
