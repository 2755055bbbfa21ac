"""Each filter narrows the results to documents whose source metadata says so."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ingestion.search.service import SearchQuery, search
from tests.search.helpers import HashEmbedder, add_chunk, make_document

pytestmark = pytest.mark.django_db

TEXT = "Retribusi pelayanan pasar dipungut oleh pemerintah daerah"


@pytest.fixture
def two_regions() -> dict[str, str]:
    banda = make_document(
        "Qanun Kota Banda Aceh Nomor 2 Tahun 2020",
        source={
            "jenis": "Qanun",
            "tahun": "2020",
            "wilayah": "Kota Banda Aceh",
            "status_berlaku": "Berlaku",
            "classification": "public",
        },
    )
    add_chunk(banda, TEXT)
    besar = make_document(
        "Qanun Kabupaten Aceh Besar Nomor 7 Tahun 2018",
        source_type="PPID",
        source={
            "jenis": "Peraturan Bupati",
            "year": "2018",
            "wilayah": "Kabupaten Aceh Besar",
            "status_berlaku": "Dicabut",
            "classification": "internal",
        },
    )
    add_chunk(besar, TEXT)
    return {"banda": str(banda.id), "besar": str(besar.id)}


def found(**filters: Any) -> set[str]:
    query = replace(SearchQuery(text="retribusi pasar"), **filters)
    response = search(query, embedder=HashEmbedder())
    return {hit.document_id for hit in response.results}


def test_without_filters_both_regions_are_found(two_regions: dict[str, str]) -> None:
    assert found() == {two_regions["banda"], two_regions["besar"]}


def test_the_tahun_filter_also_reads_the_year_key(two_regions: dict[str, str]) -> None:
    assert found(tahun="2020") == {two_regions["banda"]}
    assert found(tahun="2018") == {two_regions["besar"]}


def test_the_wilayah_filter_ignores_case(two_regions: dict[str, str]) -> None:
    assert found(wilayah="kota banda aceh") == {two_regions["banda"]}


def test_the_jenis_filter_selects_one_kind(two_regions: dict[str, str]) -> None:
    assert found(jenis="Peraturan Bupati") == {two_regions["besar"]}


def test_the_status_berlaku_filter_hides_repealed_acts(two_regions: dict[str, str]) -> None:
    assert found(status_berlaku="Berlaku") == {two_regions["banda"]}


def test_the_classification_filter_selects_public_documents(
    two_regions: dict[str, str],
) -> None:
    assert found(classification="public") == {two_regions["banda"]}


def test_the_source_type_filter_selects_one_source(two_regions: dict[str, str]) -> None:
    assert found(source_type="PPID") == {two_regions["besar"]}


def test_a_filter_nothing_matches_returns_no_results(two_regions: dict[str, str]) -> None:
    assert found(tahun="1999") == set()
