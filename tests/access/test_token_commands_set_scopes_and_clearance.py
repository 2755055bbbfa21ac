"""create_api_token sets scopes, classifications and source types (the token still on the
last line); list_api_tokens shows each token's scopes, clearance and last use; a token
without a scope is refused that operation."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from ingestion.models import ApiToken
from tests.api.helpers import bearer


def _issue(*args: str) -> str:
    out = StringIO()
    call_command("create_api_token", *args, stdout=out, stderr=StringIO())
    return out.getvalue().strip().splitlines()[-1]


def _listing() -> list[list[str]]:
    out = StringIO()
    call_command("list_api_tokens", stdout=out)
    return [line.split("\t") for line in out.getvalue().strip().splitlines()]


@pytest.mark.django_db
def test_the_options_are_stored_and_the_token_is_still_the_last_line() -> None:
    token = _issue(
        "ppid-internal",
        "--scope",
        "search",
        "--classification",
        "Internal",
        "--source-type",
        "PPID",
    )
    stored = ApiToken.objects.get(name="ppid-internal")
    assert token.startswith(stored.prefix)
    assert stored.scopes == ["search"]
    assert stored.classifications == ["internal"]
    assert stored.source_types == ["PPID"]


@pytest.mark.django_db
def test_a_token_without_options_searches_uploads_and_reads_the_public_set() -> None:
    _issue("portal")
    stored = ApiToken.objects.get(name="portal")
    assert sorted(stored.scopes) == ["search", "upload"]
    assert stored.classifications == [] and stored.source_types == []


@pytest.mark.django_db
def test_an_unknown_scope_or_source_type_is_a_usage_error() -> None:
    with pytest.raises(CommandError):
        _issue("salah", "--scope", "semua")
    with pytest.raises(CommandError):
        _issue("salah", "--source-type", "Twitter")


@pytest.mark.django_db
def test_list_api_tokens_shows_scopes_clearance_and_last_use(client: Client) -> None:
    used = _issue("terpakai", "--scope", "search", "--classification", "internal")
    _issue("belum-dipakai", "--scope", "upload")
    client.get("/api/search?q=pajak", headers=bearer(used))
    header, *rows = _listing()
    assert header[:3] == ["nama", "awalan", "cakupan"]
    by_name = {row[0]: dict(zip(header, row, strict=True)) for row in rows}
    assert by_name["terpakai"]["cakupan"] == "search"
    assert by_name["terpakai"]["klasifikasi"] == "internal"
    assert by_name["terpakai"]["terakhir_dipakai"] != "-"
    assert by_name["belum-dipakai"]["cakupan"] == "upload"
    assert by_name["belum-dipakai"]["klasifikasi"] == "publik"
    assert by_name["belum-dipakai"]["terakhir_dipakai"] == "-"
    assert used not in "\n".join("\t".join(r) for r in rows)


@pytest.mark.django_db
def test_a_token_without_the_scope_is_refused_that_operation(client: Client) -> None:
    uploader = _issue("hanya-unggah", "--scope", "upload")
    searcher = _issue("hanya-cari", "--scope", "search")
    refused = client.get("/api/search?q=pajak", headers=bearer(uploader))
    assert refused.status_code == 403
    assert refused.json()["code"] == "SCOPE_MISSING"
    upload = client.post("/api/documents", {"title": "x"}, headers=bearer(searcher))
    assert upload.status_code == 403
    assert upload.json()["code"] == "SCOPE_MISSING"
