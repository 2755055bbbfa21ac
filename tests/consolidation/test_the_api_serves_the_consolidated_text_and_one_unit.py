"""``GET /api/documents/{id}/consolidated`` (JSON and the text download) and
``GET /api/units`` through a real client with a bearer token, and both in OpenAPI."""

from __future__ import annotations

import pytest
from django.test import Client
from openapi_spec_validator import validate

from ingestion.relations.consolidated import NOTICE
from tests.api.helpers import bearer, issue_token
from tests.ui.helpers import client_for, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def headers() -> dict[str, str]:
    return bearer(issue_token())


def test_the_regulation_is_served_pasal_by_pasal_in_force(
    client: Client, tipikor: tuple[str, str], headers: dict[str, str]
) -> None:
    original, amending = tipikor
    body = client.get(f"/api/documents/{original}/consolidated", headers=headers).json()
    assert body["chainComplete"] is True and body["missing"] == []
    assert [(a["citation"], a["documentId"]) for a in body["amendments"]] == [
        ("UU 20/2001", amending)
    ]
    assert body["amendments"][0]["counts"]["applied"] > 0
    pasal_5 = next(p for p in body["pasals"] if p["number"] == "5")
    assert pasal_5["state"] == "amended"
    assert pasal_5["validFrom"] == "2001-11-21"
    assert pasal_5["changedBy"][0]["citation"] == "UU 20/2001"
    assert [v["state"] for v in pasal_5["versions"]] == ["original", "amended"]
    assert pasal_5["versions"][0]["validTo"] == "2001-11-21"
    pasal_1 = next(p for p in body["pasals"] if p["number"] == "1")
    assert pasal_1["state"] == "original" and pasal_1["changedBy"] == []


def test_as_of_a_date_before_the_amendment_serves_the_original_wording(
    client: Client, tipikor: tuple[str, str], headers: dict[str, str]
) -> None:
    original, _amending = tipikor
    url = f"/api/documents/{original}/consolidated?as_of=2000-01-01"
    pasal_5 = next(
        p for p in client.get(url, headers=headers).json()["pasals"] if p["number"] == "5"
    )
    assert pasal_5["state"] == "original"
    assert "Pasal 209" in pasal_5["text"]


def test_format_text_is_a_download_headed_by_the_notice(
    client: Client, tipikor: tuple[str, str], headers: dict[str, str]
) -> None:
    original, _amending = tipikor
    response = client.get(f"/api/documents/{original}/consolidated?format=text", headers=headers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    assert text.startswith(NOTICE)
    assert "tidak memiliki kekuatan hukum" in text
    assert "sebagaimana telah diubah dengan UU 20/2001" in text


def test_a_unit_is_served_in_force_with_its_history(
    client: Client, tipikor: tuple[str, str], headers: dict[str, str]
) -> None:
    response = client.get("/api/units", {"ref": "UU 31/1999 Pasal 5 ayat (1)"}, headers=headers)
    assert response.status_code == 200
    body = response.json()
    assert body["citationFull"] == (
        "UU 31/1999 Pasal 5 ayat (1) sebagaimana telah diubah dengan UU 20/2001"
    )
    assert body["inForce"] is True and "pegawai negeri" in body["text"]
    assert [v["state"] for v in body["history"]] == ["original", "amended"]
    # The original Pasal 5 had no ayat (1).
    assert body["history"][0]["unitText"] is None


def test_a_reference_that_names_nothing_is_a_404_in_indonesian(
    client: Client, tipikor: tuple[str, str], headers: dict[str, str]
) -> None:
    response = client.get("/api/units", {"ref": "UU 31/1999 Pasal 999"}, headers=headers)
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "UNIT_UNKNOWN"
    assert "tidak memuat Pasal 999" in body["detail"]
    unknown = client.get("/api/units", {"ref": "apa saja"}, headers=headers)
    assert unknown.status_code == 404 and "tidak menyebut" in unknown.json()["detail"]


def test_both_endpoints_are_in_a_valid_openapi_document() -> None:
    spec = client_for(make_user("pembaca-api")).get("/api/openapi.json").json()
    validate(spec)
    paths = spec["paths"]
    assert "/api/documents/{document_id}/consolidated" in paths
    assert "/api/units" in paths
