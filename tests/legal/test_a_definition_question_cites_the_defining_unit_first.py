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
    return issue_token()


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
        # the short form: "Jaminan Kematian yang selanjutnya disingkat JKM adalah …"
        ("Apa yang dimaksud dengan JKM?", "PP 44/2015 Pasal 1 angka 2", "2. Jaminan Kematian"),
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
