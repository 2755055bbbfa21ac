"""A citation-style query finds the document by its title labels, not by its text."""

from __future__ import annotations

import pytest

from ingestion.search.service import SearchQuery, search
from tests.search.helpers import HashEmbedder, add_chunk, make_document

pytestmark = pytest.mark.django_db


def qanun(nomor: str, tahun: str, title: str, text: str) -> str:
    document = make_document(title, source={"jenis": "Qanun Aceh", "nomor": nomor, "tahun": tahun})
    add_chunk(document, text, heading_path="Pasal 1")
    add_chunk(document, "Ketentuan lain tentang tata cara pelaksanaan", heading_path="Pasal 2")
    return str(document.id)


def test_qanun_aceh_nomor_3_tahun_2026_finds_that_qanun_first() -> None:
    target = qanun("3", "2026", "Pengelolaan Hutan Adat", "Hutan adat dikelola oleh mukim")
    qanun("5", "2026", "Pajak Air Permukaan", "Pajak air permukaan dipungut provinsi")
    qanun("3", "2019", "Lembaga Wali Nanggroe", "Wali Nanggroe adalah lembaga adat")
    other = make_document(
        "Peraturan Gubernur Aceh Nomor 3 Tahun 2026",
        source={"jenis": "Peraturan Gubernur", "nomor": "3", "tahun": "2026"},
    )
    add_chunk(other, "Qanun Aceh menjadi dasar peraturan gubernur ini")

    for text in ("Qanun Aceh nomor 3 tahun 2026", "qanun aceh 3/2026"):
        response = search(SearchQuery(text=text), embedder=HashEmbedder())
        assert response.results[0].document_id == target, text
