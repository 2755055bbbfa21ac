"""A NUL character in a search or upload text field is refused with 422, never a 500:
Postgres can neither store nor compare it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from tests.api.helpers import bearer, issue_token

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("field", ["q", "classification", "tahun", "wilayah", "source_type"])
def test_a_search_with_a_nul_character_is_refused(client: Client, field: str) -> None:
    params = {"q": "sampah", field: "qanun\x00aceh"}
    response = client.get("/api/search", params, headers=bearer(issue_token()))
    assert response.status_code == 422
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_an_upload_with_a_nul_character_in_its_metadata_is_refused(
    client: Client, tmp_path: Path
) -> None:
    data = {
        "file": SimpleUploadedFile("qanun.txt", b"QANUN ACEH\nPasal 1\nIsi.", "text/plain"),
        "title": "Qanun\x00Aceh",
    }
    with override_settings(OBJECT_STORAGE_URL=(tmp_path / "store").as_uri()):
        response = client.post("/api/documents", data=data, headers=bearer(issue_token()))
    assert response.status_code == 422
    assert response.json()["code"] == "VALIDATION_ERROR"
