"""/api/search answers "Apa yang dimaksud dengan X?" with the unit that defines X."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.api.helpers import bearer, issue_token
from tests.legal.helpers import IndexRegulation

pytestmark = pytest.mark.django_db


@pytest.fixture
def token(index_regulation: IndexRegulation) -> str:
    meta = {"jenis": "Peraturan Pemerintah", "nomor": "44", "tahun": "2015"}
    index_regulation("galqa/docs/pp_44_2015.txt", "txt", "pp_44_2015.txt", meta)
    meta = {"jenis": "Peraturan Pemerintah", "nomor": "4", "tahun": "2015"}
    index_regulation("galqa/docs/pp_4_2015.txt", "txt", "pp_4_2015.txt", meta)
    meta = {"jenis": "Peraturan Pemerintah", "nomor": "49", "tahun": "2020"}
    index_regulation("galqa/docs/pp_49_2020.txt", "txt", "pp_49_2020.txt", meta)
    return issue_token()


def test_a_term_two_regulations_define_cites_one_of_their_definitions(
    client: Client, token: str
) -> None:
    first = _first(client, token, "Apa yang dimaksud dengan JKM?")
    assert first["citation"] in {"PP 44/2015 Pasal 1 angka 2", "PP 49/2020 Pasal 1 angka 3"}
    assert "selanjutnya disingkat JKM adalah" in first["unitText"]


def _first(client: Client, token: str, q: str) -> dict[str, Any]:
    params: dict[str, str | int] = {"q": q, "limit": 5}
    response = client.get("/api/search", params, headers=bearer(token))
    assert response.status_code == 200
    results: list[dict[str, Any]] = response.json()["results"]
    assert results
    return results[0]


@pytest.mark.parametrize(
    ("question", "citation", "opening"),
    [
        ("Apa yang dimaksud dengan pemberi kerja?", "PP 44/2015 Pasal 1 angka 3", "3. Pemberi"),
        # the short form: "Surat Izin Pelaksana … yang selanjutnya disingkat SIPPTKI adalah …"
        ("Apa itu SIPPTKI?", "PP 4/2015 Pasal 1 angka 10", "10. Surat Izin"),
        # a term defined in an ayat, not in Pasal 1
        (
            "Apa yang dimaksud dengan tahapan represif non yustisia?",
            "PP 4/2015 Pasal 11 ayat (3)",
            "(3)",
        ),
    ],
)
def test_the_defining_unit_is_first_and_cited(
    client: Client, token: str, question: str, citation: str, opening: str
) -> None:
    first = _first(client, token, question)
    assert first["citation"] == citation
    assert first["unitText"].startswith(opening)
    start, end = first["unitSpan"]
    assert first["text"][start:end] == first["unitText"]


def test_an_ordinary_question_is_not_treated_as_a_definition(client: Client, token: str) -> None:
    first = _first(client, token, "Bagaimana tata cara pembayaran iuran JKK?")
    assert not first["citation"].endswith("Pasal 1 angka 3")


@pytest.mark.parametrize(
    ("question", "citation"),
    [
        ("Apa yang dimaksud dengan JKM menurut PP 49/2020?", "PP 49/2020 Pasal 1 angka 3"),
        ("Apa yang dimaksud dengan JKM dalam PP 44/2015?", "PP 44/2015 Pasal 1 angka 2"),
    ],
)
def test_a_named_regulation_chooses_among_its_definitions(
    client: Client, token: str, question: str, citation: str
) -> None:
    assert _first(client, token, question)["citation"] == citation
