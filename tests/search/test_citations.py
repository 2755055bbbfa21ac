"""Every hit carries a citation: title, heading path, pages, edition and a source link."""

from __future__ import annotations

import pytest

from ingestion.search.service import SearchQuery, search
from tests.search.helpers import HashEmbedder, add_chunk, make_document

pytestmark = pytest.mark.django_db


def first_hit(query: str):  # type: ignore[no-untyped-def]
    response = search(SearchQuery(text=query), embedder=HashEmbedder())
    assert response.results, "expected at least one hit"
    return response.results[0]


def test_a_hit_carries_heading_path_pages_and_edition() -> None:
    document = make_document(
        "Qanun Aceh Nomor 3 Tahun 2026",
        source_key="jdih-qanun-3-2026",
        source_version="2026-07-23T10:15:30Z",
        source={"jenis": "Qanun Aceh", "nomor": "3", "tahun": "2026"},
    )
    add_chunk(
        document,
        "Setiap orang wajib menjaga kebersihan sungai",
        heading_path="BAB III › Pasal 12",
        pages=(4, 5),
    )
    hit = first_hit("kebersihan sungai")
    assert hit.document_id == str(document.id)
    assert hit.title == "Qanun Aceh Nomor 3 Tahun 2026"
    assert hit.heading_path == "BAB III › Pasal 12"
    assert (hit.page_from, hit.page_to) == (4, 5)
    assert (hit.source_key, hit.source_version) == ("jdih-qanun-3-2026", "2026-07-23T10:15:30Z")
    assert (hit.nomor, hit.tahun, hit.jenis) == ("3", "2026", "Qanun Aceh")
    assert hit.source_type == "JDIH"
    assert hit.score > 0


def test_the_source_pdf_url_is_preferred_as_the_link() -> None:
    document = make_document(
        "Pergub Aceh 9/2021",
        source={
            "url": "https://jdih.acehprov.go.id/d/9",
            "pdf_url": "https://jdih.acehprov.go.id/9.pdf",
        },
    )
    add_chunk(document, "Tunjangan kinerja pegawai")
    assert first_hit("tunjangan kinerja").source_url == "https://jdih.acehprov.go.id/9.pdf"


def test_a_non_http_source_url_is_never_a_citation_link() -> None:
    document = make_document(
        "Pergub Aceh 10/2021",
        source={"pdf_url": "javascript:alert(1)", "detail_url": "https://jdih.acehprov.go.id/d/10"},
    )
    add_chunk(document, "Pakaian dinas harian")
    assert first_hit("pakaian dinas").source_url == "https://jdih.acehprov.go.id/d/10"


def test_without_a_source_url_the_link_is_our_download_view() -> None:
    document = make_document("Surat Edaran Sekda")
    add_chunk(document, "Jam kerja selama bulan Ramadan")
    assert first_hit("jam kerja Ramadan").source_url == f"/documents/{document.id}/download"


def test_the_response_json_has_exactly_the_stable_keys() -> None:
    document = make_document("Surat Edaran Sekda")
    add_chunk(document, "Jam kerja selama bulan Ramadan")
    body = search(SearchQuery(text="jam kerja"), embedder=HashEmbedder()).to_json()
    assert set(body) == {"results", "degraded", "tookMs", "namedRegulationMissing"}
    required = {
        "documentId",
        "title",
        "headingPath",
        "pageFrom",
        "pageTo",
        "text",
        "score",
        "sourceUrl",
        "sourceType",
        "sourceKey",
        "sourceVersion",
    }
    assert required <= set(body["results"][0])
    assert body["degraded"] is None
    assert body["tookMs"] >= 0
