"""POST /api/documents accepts only the declared source types."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from ingestion.models import IngestionJob
from tests.api.helpers import bearer, issue_token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _store(tmp_path: Path) -> Iterator[None]:
    with override_settings(OBJECT_STORAGE_URL=(tmp_path / "store").as_uri()):
        yield


def _post(client: Client, headers: dict[str, str] | None = None, **extra: str) -> Any:
    data = {"file": SimpleUploadedFile("qanun.txt", b"Pasal 1\nIsi.", "text/plain"), **extra}
    return client.post("/api/documents", data=data, headers=headers or {})


def test_an_unknown_source_type_is_rejected_with_a_code(client: Client) -> None:
    response = _post(client, bearer(issue_token()), source_type="<script>")
    assert response.status_code == 400
    assert response.json()["code"] == "UPLOAD_REJECTED"
    assert not IngestionJob.objects.exists()


def test_a_declared_source_type_is_accepted(client: Client) -> None:
    response = _post(client, bearer(issue_token()), source_type="JDIH")
    assert response.status_code == 202
    assert IngestionJob.objects.get().payload["source_type"] == "JDIH"
