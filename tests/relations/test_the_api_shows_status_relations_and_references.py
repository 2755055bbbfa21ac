"""GET /api/documents/{id} gains citation, inForce and relations both ways; /api/search
gains inForce, references and include_repealed; the OpenAPI document names them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.api.helpers import bearer, issue_token
from tests.relations.helpers import StoreRegulation, amending, plain, repealing

pytestmark = pytest.mark.django_db

TARGET = "Peraturan Daerah Nomor 3 Tahun 2010 tentang Retribusi Pasar"


@pytest.fixture
def token() -> str:
    return issue_token()


def test_a_repealed_regulation_lists_its_repealer_and_the_repealer_its_target(
    client: Client, token: str, regulation: StoreRegulation
) -> None:
    old = regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    new = regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")
    old_body = client.get(f"/api/documents/{old.pk}", headers=bearer(token)).json()
    assert old_body["inForce"] is False
    assert old_body["inForceSource"] == "relations"
    assert old_body["relations"] == [
        {"kind": "repealed_by", "citation": "Perda Banjarnegara 9/2024", "title": "Perda 9/2024",
         "documentId": str(new.pk)}
    ]  # fmt: skip
    new_body = client.get(f"/api/documents/{new.pk}", headers=bearer(token)).json()
    assert new_body["inForce"] is True
    assert new_body["relations"] == [
        {"kind": "repeals", "citation": "Perda Banjarnegara 3/2010", "title": "Retribusi Pasar",
         "documentId": str(old.pk)}
    ]  # fmt: skip
    assert "citation" in new_body  # the legal engineer's stored short citation, or null


def test_the_partners_status_wins_and_both_are_shown(
    client: Client, token: str, regulation: StoreRegulation
) -> None:
    old = regulation(
        plain("3", "2010"),
        title="Perda 3/2010",
        source_key="old",
        source={"status_berlaku": "Berlaku"},
    )
    regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")
    body = client.get(f"/api/documents/{old.pk}", headers=bearer(token)).json()
    assert (body["inForce"], body["inForceSource"], body["statusBerlaku"]) == (
        True,
        "status_berlaku",
        "Berlaku",
    )
    assert [r["kind"] for r in body["relations"]] == ["repealed_by"]


def test_an_amendment_is_listed_both_ways(
    client: Client, token: str, regulation: StoreRegulation
) -> None:
    old = regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    new = regulation(amending(TARGET), title="Perda 1/2024", source_key="new")
    old_kinds = [
        r["kind"]
        for r in client.get(f"/api/documents/{old.pk}", headers=bearer(token)).json()["relations"]
    ]
    new_kinds = [
        r["kind"]
        for r in client.get(f"/api/documents/{new.pk}", headers=bearer(token)).json()["relations"]
    ]
    assert (old_kinds, new_kinds) == (["amended_by"], ["amends"])


def test_search_hides_the_repealed_unless_include_repealed(
    client: Client, token: str, regulation: StoreRegulation
) -> None:
    regulation(plain("3", "2010"), title="Perda 3/2010", source_key="old")
    regulation(repealing(TARGET), title="Perda 9/2024", source_key="new")
    url = "/api/search?q=retribusi dipungut atas pelayanan pasar&limit=20"
    default = client.get(url, headers=bearer(token)).json()["results"]
    assert {r["title"] for r in default} == {"Perda 9/2024"}
    assert all(r["inForce"] is True and r["references"] == [] for r in default)
    everything = client.get(url + "&include_repealed=true", headers=bearer(token)).json()
    flags = [r["inForce"] for r in everything["results"]]
    assert False in flags and flags == sorted(flags, reverse=True)  # in force first
    repealed = [r for r in everything["results"] if r["inForce"] is False]
    assert repealed[0]["repealedBy"] == ["Perda Banjarnegara 9/2024"]


def test_the_openapi_document_names_the_new_fields(client: Client, admin_user: User) -> None:
    client.force_login(admin_user)
    spec = client.get("/api/openapi.json").json()
    schemas = spec["components"]["schemas"]
    assert {"citation", "inForce", "inForceSource", "statusBerlaku", "relations"} <= set(
        schemas["DocumentOut"]["properties"]
    )
    assert {"inForce", "references", "amendedBy", "repealedBy"} <= set(
        schemas["SearchHitOut"]["properties"]
    )
    assert set(schemas["RelationOut"]["properties"]["kind"]["enum"]) == {
        "amends", "repeals", "amended_by", "repealed_by"
    }  # fmt: skip
    parameters = {p["name"] for p in spec["paths"]["/api/search"]["get"]["parameters"]}
    assert "include_repealed" in parameters
