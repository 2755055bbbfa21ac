"""/api/search resolves a query that names a unit and a regulation: that unit comes first."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.api.helpers import bearer, issue_token
from tests.legal.helpers import IndexRegulation

pytestmark = pytest.mark.django_db


def _pp(nomor: str) -> dict[str, str]:
    return {"jenis": "Peraturan Pemerintah", "nomor": nomor, "tahun": "2021"}


@pytest.fixture
def corpus(index_regulation: IndexRegulation) -> dict[str, str]:
    pp34 = index_regulation("galqa/docs/pp_34_2021.txt", "txt", "pp_34_2021.txt", _pp("34"))
    pp35 = index_regulation("galqa/docs/pp_35_2021.txt", "txt", "pp_35_2021.txt", _pp("35"))
    return {"pp34": str(pp34.pk), "pp35": str(pp35.pk), "token": issue_token()}


def _search(client: Client, token: str, q: str) -> list[dict[str, Any]]:
    params: dict[str, str | int] = {"q": q, "limit": 5}
    response = client.get("/api/search", params, headers=bearer(token))
    assert response.status_code == 200
    results: list[dict[str, Any]] = response.json()["results"]
    return results


@pytest.mark.parametrize(
    "query", ["Pasal 5 ayat (2) PP 35/2021", "pp 35 tahun 2021 pasal 5 ayat 2"]
)
def test_the_named_ayat_is_the_first_result(
    client: Client, corpus: dict[str, str], query: str
) -> None:
    first = _search(client, corpus["token"], query)[0]
    assert first["documentId"] == corpus["pp35"]
    assert first["unit"] == {"pasal": "5", "ayat": "2", "huruf": None, "angka": None}
    assert first["citation"] == "PP 35/2021 Pasal 5 ayat (2)"
    start, end = first["unitSpan"]
    assert first["text"][start:end] == first["unitText"]
    assert first["unitText"].startswith("(2)")


def test_a_named_huruf_is_cited_with_its_ayat(client: Client, corpus: dict[str, str]) -> None:
    first = _search(client, corpus["token"], "Pasal 21 ayat (4) huruf g PP 34/2021")[0]
    assert first["citation"] == "PP 34/2021 Pasal 21 ayat (4) huruf g"
    assert first["unitText"].startswith("g. laporan realisasi pelaksanaan pendidikan")


def test_a_query_naming_only_a_regulation_ranks_that_regulation_first(
    client: Client, corpus: dict[str, str]
) -> None:
    results = _search(client, corpus["token"], "PP 34/2021 tenaga kerja asing")
    assert results and all(hit["documentId"] == corpus["pp34"] for hit in results)


def test_a_question_is_cited_at_its_unit(client: Client, corpus: dict[str, str]) -> None:
    """No reference in the text: the cited unit is the one the question's words match."""
    results = _search(
        client, corpus["token"], "Laporan realisasi apa yang diperlukan dalam perpanjangan RPTKA?"
    )
    first = results[0]
    assert first["documentId"] == corpus["pp34"]
    assert first["citation"].startswith("PP 34/2021 Pasal 21 ayat (4)")


def test_pasal_59_uu_ketenagakerjaan_resolves_the_name_from_the_titles(
    client: Client, index_regulation: IndexRegulation
) -> None:
    uu = index_regulation(
        "docs/uu_13_2003_ketenagakerjaan.pdf", "pdf", "uu_13_2003_ketenagakerjaan.pdf"
    )
    index_regulation("galqa/docs/pp_35_2021.txt", "txt", "pp_35_2021.txt", _pp("35"))
    first = _search(client, issue_token(), "pasal 59 uu ketenagakerjaan")[0]
    assert first["documentId"] == str(uu.pk)
    assert first["citation"] == "UU 13/2003 Pasal 59"
    assert first["pageFrom"] == 18
